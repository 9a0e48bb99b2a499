package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/knowspace/knowspace/internal/store"
)

// Rotate seals every stored API key again with newSecret, in one
// transaction: a key that opens with neither secrets key stops it and
// nothing changes. A key sealed with newSecret already is kept, so a rerun
// after a crash finishes the job. It returns how many keys it holds sealed.
func Rotate(ctx context.Context, st *store.Store, oldSecret, newSecret string) (int, error) {
	if newSecret == "" || newSecret == oldSecret {
		return 0, errors.New("the new secrets key must be set and differ from the current one")
	}
	next, err := NewSealer(newSecret)
	if err != nil {
		return 0, err
	}
	var prev *Sealer
	if oldSecret != "" {
		if prev, err = NewSealer(oldSecret); err != nil {
			return 0, err
		}
	}
	return st.ResealAdminModelKeys(ctx, func(m store.AdminModel) (string, error) {
		if next.SealedWith(m.APIKeySealed) {
			return m.APIKeySealed, nil
		}
		if prev == nil {
			return "", fmt.Errorf("model %s: its key is sealed and no current secrets key is configured", m.ID)
		}
		plain, err := prev.Open(m.APIKeySealed, m.ID)
		if err != nil {
			return "", fmt.Errorf("model %s: %w", m.ID, err)
		}
		return next.Seal(plain, m.ID)
	})
}
