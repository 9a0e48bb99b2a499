package blob

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestSweepOffersOnlyBlobsPastTheGrace(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	put := func(text string, age time.Duration) string {
		p, err := s.Put(strings.NewReader(text), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Commit(); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		os.Chtimes(s.path(p.Hash), old, old)
		return p.Hash
	}
	orphan := put("orphan", time.Hour)
	kept := put("referenced", time.Hour)
	fresh := put("just uploaded, row not yet committed", 0)
	free := func(_ context.Context, hashes []string) (int, error) {
		n := 0
		for _, h := range hashes {
			if h != kept && s.Remove(h) == nil {
				n++
			}
		}
		return n, nil
	}
	n, err := s.Sweep(context.Background(), 10*time.Minute, free)
	if err != nil || n != 1 {
		t.Fatalf("removed %d, err %v", n, err)
	}
	for h, want := range map[string]bool{orphan: false, kept: true, fresh: true} {
		_, err := os.Stat(s.path(h))
		if (err == nil) != want {
			t.Fatalf("blob %s… present=%v, want %v", h[:8], err == nil, want)
		}
	}
	if _, err := os.Stat(s.path(orphan) + ".idx"); !os.IsNotExist(err) {
		t.Fatal("the orphan's index was left behind")
	}
}

func TestBlobsArePrivate(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Long enough to have an index file (Stride characters).
	p, err := s.Put(strings.NewReader(strings.Repeat("secret notes ", Stride/12)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	p.Abort()
	for path, want := range map[string]os.FileMode{
		s.dir: 0o700, s.tmp: 0o700, s.path(p.Hash): 0o600, s.path(p.Hash) + ".idx": 0o600,
	} {
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != want {
			t.Fatalf("%s: mode %v, want %v (%v)", path, st.Mode().Perm(), want, err)
		}
	}
	// Files an older version staged in tmp/ itself go past StagingMaxAge;
	// this process's own staging is never swept, whatever its age.
	old := time.Now().Add(-2 * StagingMaxAge)
	stale, _ := os.CreateTemp(s.staging, "upload-*")
	stale.Close()
	os.Chtimes(stale.Name(), old, old)
	inflight, _ := os.CreateTemp(s.staging, "upload-*")
	inflight.Close()
	mine, _ := os.CreateTemp(s.tmp, "upload-*")
	mine.Close()
	os.Chtimes(mine.Name(), old, old)
	if got, err := s.CleanStaging(StagingMaxAge); err != nil || len(got) != 1 || got[0].Path != stale.Name() {
		t.Fatalf("cleaned %+v (%v), want only %s", got, err, stale.Name())
	}
	for _, f := range []string{inflight.Name(), mine.Name()} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was swept", f)
		}
	}
}
