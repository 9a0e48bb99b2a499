package store

import (
	"context"
	"encoding/hex"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// blobLockClass is the first key of every blob advisory lock, so blob locks
// never collide with other advisory locks (goose's migration lock uses the
// one-key form, a separate key space).
const blobLockClass = 0x6b62 // "kb"

// LockBlobs makes the transaction the only one, until it ends, that may add
// a reference to or remove the bytes of each content hash. It must run
// inside InTx, before the blob's bytes are put in place or removed.
//
// PostgreSQL: a transaction-scoped advisory lock per hash, taken in key
// order so two transactions locking overlapping sets cannot deadlock. The
// keys are blobLockBuckets buckets of the hash, so that an import of
// thousands of files (each with its text) takes at most that many locks:
// PostgreSQL's lock table holds about 10,000 at its default size, for all
// sessions. Two hashes sharing a bucket only serialize each other, which
// is harmless.
//
// SQLite: every transaction begins IMMEDIATE (see sqliteDSN), which takes the
// database's single write lock, across processes, at BEGIN; a transaction is
// already exclusive with every other writer, so there is nothing to add.
func (s *Store) LockBlobs(ctx context.Context, hashes []string) error {
	if s.dialect != DialectPostgres || len(hashes) == 0 {
		return nil
	}
	keys := make([]int32, 0, len(hashes))
	for _, h := range hashes {
		keys = append(keys, blobLockKey(h))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	// One statement for all: a function scan yields the array's elements
	// in order, so the locks are taken in key order still.
	list := make([]string, len(keys))
	for i, k := range keys {
		list[i] = strconv.Itoa(int(k))
	}
	return translate(s.db.WithContext(ctx).Exec("SELECT count(pg_advisory_xact_lock(?, k)) FROM unnest(?::int4[]) AS k",
		blobLockClass, "{"+strings.Join(list, ",")+"}").Error)
}

// treeLockClass keys the per-user tree lock.
const treeLockClass = 0x6b74 // "kt"

// LockTree makes the transaction the only one changing the user's tree
// until it ends, so a move, delete or upload never works from paths another
// one is rewriting (no half-moved subtree). Taken first, before any row or
// blob lock. SQLite's write lock already serializes writers (see LockBlobs).
func (s *Store) LockTree(ctx context.Context, userID int64) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	return translate(s.db.WithContext(ctx).Exec("SELECT pg_advisory_xact_lock(?, ?)", treeLockClass, int32(userID)).Error)
}

// blobLockBuckets bounds the blob locks of one transaction.
const blobLockBuckets = 4096

func blobLockKey(hash string) int32 {
	if b, err := hex.DecodeString(hash); err == nil && len(b) >= 4 {
		return int32((uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) % blobLockBuckets)
	}
	f := fnv.New32a()
	f.Write([]byte(hash))
	return int32(f.Sum32() % blobLockBuckets)
}
