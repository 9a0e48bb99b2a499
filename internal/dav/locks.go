package dav

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"golang.org/x/net/webdav"

	"github.com/knowspace/knowspace/internal/store"
)

// maxLockDuration caps a lock's timeout, infinite ones included, so a
// client that vanishes leaves no lock behind for longer.
const maxLockDuration = 24 * time.Hour

// lockSystem is webdav.LockSystem over the dav_locks table, so every
// replica sees the same locks. Names are mapped to paths of the caller's
// tree as the file system maps them, so a scoped and an unscoped client
// of the same user agree on what is locked. The rules are those of
// webdav's in-memory lock system: a lock conflicts with a lock on the
// same path, with an infinite-depth lock on an ancestor and, when it is
// infinite itself, with any lock below.
type lockSystem struct {
	ctx    context.Context
	st     *store.Store
	userID int64
	fs     *fileSystem
	// probeOnly is set for a request without an If header: webdav then
	// takes a lock for the request's length only to learn whether another
	// client holds one, and a read answers that without a write.
	probeOnly bool
	// deep is set for DELETE, MOVE and COPY, which change or replace whole
	// subtrees: a lock anywhere below what they touch binds them too.
	deep bool
}

var _ webdav.LockSystem = (*lockSystem)(nil)

const probeToken = "opaquelocktoken:knowspace-probe"

func (l *lockSystem) name(p string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, l.fs.root), "/")
	if l.fs.root != "" && p == l.fs.root {
		rel = ""
	}
	return "/" + rel
}

// covers tells whether lock k applies to path p.
func covers(k store.DavLock, p string) bool {
	return k.Root == p || !k.ZeroDepth && within(p, k.Root)
}

// within tells whether p is strictly below root.
func within(p, root string) bool { return root == "" && p != "" || strings.HasPrefix(p, root+"/") }

func conflicts(k store.DavLock, p string, zeroDepth bool) bool {
	return covers(k, p) || !zeroDepth && within(k.Root, p)
}

// Confirm checks one list of an If header (RFC 4918 §10.4): every
// condition must hold for name0, a lock token holding when its lock
// covers name0 and an entity tag when it is the resource's, and every lock
// covering name0 or name1 must be one the list names. webdav's in-memory
// lock system ignores entity tags; a bogus one here fails the request.
func (l *lockSystem) Confirm(now time.Time, name0, name1 string, conditions ...webdav.Condition) (func(), error) {
	ks, err := l.st.DavLocks(l.ctx, l.userID, now)
	if err != nil {
		return nil, err
	}
	byToken := make(map[string]store.DavLock, len(ks))
	for _, k := range ks {
		byToken[k.Token] = k
	}
	p0 := ""
	if name0 != "" {
		p0 = l.fs.treePath(name0)
	}
	named := map[string]bool{}
	for _, c := range conditions {
		var holds bool
		if c.Token != "" {
			k, ok := byToken[c.Token]
			holds = ok && name0 != "" && covers(k, p0)
			if holds && !c.Not {
				named[c.Token] = true
			}
		} else {
			holds = name0 != "" && l.etagIs(p0, c.ETag)
		}
		if holds == c.Not {
			return nil, webdav.ErrConfirmationFailed
		}
	}
	for _, name := range []string{name0, name1} {
		if name == "" {
			continue
		}
		p := l.fs.treePath(name)
		for _, k := range ks {
			if (covers(k, p) || l.deep && within(k.Root, p)) && !named[k.Token] {
				return nil, webdav.ErrConfirmationFailed
			}
		}
	}
	return func() {}, nil
}

func (l *lockSystem) etagIs(p, etag string) bool {
	e, err := l.fs.stat(l.ctx, p)
	return err == nil && !e.Dir && etagOf(e) == etag
}

func (l *lockSystem) Create(now time.Time, d webdav.LockDetails) (string, error) {
	p := l.fs.treePath(d.Root)
	if l.probeOnly {
		ks, err := l.st.DavLocks(l.ctx, l.userID, now)
		if err != nil {
			return "", err
		}
		for _, k := range ks {
			if conflicts(k, p, d.ZeroDepth && !l.deep) {
				return "", webdav.ErrLocked
			}
		}
		return probeToken, nil
	}
	token := "opaquelocktoken:" + randomHex(16)
	err := l.st.InTx(l.ctx, func(tx *store.Store) error {
		if err := tx.LockTree(l.ctx, l.userID); err != nil {
			return err
		}
		if err := tx.SweepDavLocks(l.ctx, l.userID, now); err != nil {
			return err
		}
		ks, err := tx.DavLocks(l.ctx, l.userID, now)
		if err != nil {
			return err
		}
		for _, k := range ks {
			if conflicts(k, p, d.ZeroDepth) {
				return webdav.ErrLocked
			}
		}
		k := store.DavLock{Token: token, UserID: l.userID, Root: p, ZeroDepth: d.ZeroDepth,
			OwnerXML: d.OwnerXML, DurationS: seconds(d.Duration), ExpiresAt: now.Add(capped(d.Duration))}
		return tx.CreateDavLock(l.ctx, &k)
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

func (l *lockSystem) Refresh(now time.Time, token string, duration time.Duration) (webdav.LockDetails, error) {
	err := l.st.RefreshDavLock(l.ctx, l.userID, token, seconds(duration), now.Add(capped(duration)), now)
	if errors.Is(err, store.ErrNotFound) {
		return webdav.LockDetails{}, webdav.ErrNoSuchLock
	}
	if err != nil {
		return webdav.LockDetails{}, err
	}
	k, err := l.st.DavLockByToken(l.ctx, l.userID, token, now)
	if errors.Is(err, store.ErrNotFound) {
		return webdav.LockDetails{}, webdav.ErrNoSuchLock
	}
	if err != nil {
		return webdav.LockDetails{}, err
	}
	return webdav.LockDetails{Root: l.name(k.Root), Duration: duration, OwnerXML: k.OwnerXML, ZeroDepth: k.ZeroDepth}, nil
}

func (l *lockSystem) Unlock(now time.Time, token string) error {
	if token == probeToken {
		return nil
	}
	err := l.st.DeleteDavLock(l.ctx, l.userID, token, now)
	if errors.Is(err, store.ErrNotFound) {
		return webdav.ErrNoSuchLock
	}
	return err
}

func capped(d time.Duration) time.Duration {
	if d < 0 || d > maxLockDuration {
		return maxLockDuration
	}
	return d
}

func seconds(d time.Duration) int64 {
	if d < 0 {
		return -1
	}
	return int64(d / time.Second)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
