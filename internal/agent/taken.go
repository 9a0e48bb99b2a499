package agent

import "context"

// takenKey holds the request's hook for a stream whose connection is
// taken: the stream outlives its handler, so whoever accounts for the
// request (the request log) learns of it here and hears its end.
type takenKey struct{}

// WithTaken has PushEvents call taken, on the handler's goroutine, when it
// takes the request's connection; what taken returns is called once, with
// the body bytes written, when the stream ends.
func WithTaken(ctx context.Context, taken func() (ended func(written int64))) context.Context {
	return context.WithValue(ctx, takenKey{}, taken)
}

// takenHook tells the request's hook, if any, that its connection is
// taken, and returns what to call at the stream's end.
func takenHook(ctx context.Context) func(int64) {
	if taken, ok := ctx.Value(takenKey{}).(func() func(int64)); ok {
		return taken()
	}
	return nil
}
