package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// An import commits up to 20,000 files, and each may bring a text body of
// its own, in one transaction: locking all their blobs must fit in
// PostgreSQL's lock table at its default size (max_locks_per_transaction
// 64), which holds about 10,000.
func TestLockBlobsOfALargeImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		hashes := make([]string, 40_000)
		for i := range hashes {
			h := sha256.Sum256(fmt.Appendf(nil, "blob %d", i))
			hashes[i] = hex.EncodeToString(h[:])
		}
		err := st.InTx(context.Background(), func(tx *store.Store) error {
			return tx.LockBlobs(context.Background(), hashes)
		})
		if err != nil {
			t.Fatalf("lock %d blobs in one transaction: %v", len(hashes), err)
		}
	})
}
