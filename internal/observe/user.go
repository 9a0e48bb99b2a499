package observe

import (
	"context"
	"sync/atomic"
)

type userSlotKey struct{}

// WithUserSlot gives a request a place where a front door that checks its
// own credentials (MCP, the OpenAI door, WebDAV) notes who called, so the
// request log written after it names the user.
func WithUserSlot(ctx context.Context) (context.Context, *atomic.Int64) {
	slot := new(atomic.Int64)
	return context.WithValue(ctx, userSlotKey{}, slot), slot
}

// NoteUser records the authenticated user of the request, if it has a slot.
func NoteUser(ctx context.Context, userID int64) {
	if slot, ok := ctx.Value(userSlotKey{}).(*atomic.Int64); ok {
		slot.Store(userID)
	}
}
