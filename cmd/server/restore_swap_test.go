package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/knowspace/knowspace/internal/config"
)

// halfSwapped leaves dataDir as a restore killed after the first k moves of
// its swap leaves it: the journal written, k entries moved, the scratch
// directory's owner gone.
func halfSwapped(t *testing.T, dataDir string, k int) {
	t.Helper()
	work := filepath.Join(dataDir, restorePrefix+"-killed")
	for _, p := range []string{filepath.Join(work, "new", "blobs", "ab"), filepath.Join(work, "old")} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{
		filepath.Join(work, ".owner"):                  "",
		filepath.Join(work, "new", "knowspace.db"):     "restored database",
		filepath.Join(work, "new", "blobs", "ab", "x"): "restored blob",
	} {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := swap{Dir: filepath.Base(work), New: []string{"blobs", "knowspace.db"}}
	for _, n := range replaced(config.Config{}) {
		if _, err := os.Lstat(filepath.Join(dataDir, n)); err == nil {
			s.Old = append(s.Old, n)
		}
	}
	if err := writeJournal(dataDir, s); err != nil {
		t.Fatal(err)
	}
	var moves [][2]string
	for _, n := range s.Old {
		moves = append(moves, [2]string{filepath.Join(dataDir, n), filepath.Join(work, "old", n)})
	}
	for _, n := range s.New {
		moves = append(moves, [2]string{filepath.Join(work, "new", n), filepath.Join(dataDir, n)})
	}
	if k > len(moves) {
		t.Fatalf("only %d moves", len(moves))
	}
	for _, m := range moves[:k] {
		if err := os.Rename(m[0], m[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInterruptedSwapIsUndone: whichever move of the swap a restore was
// killed after, the next start puts the old data back before anything
// opens it, and the sweep then removes the restore's scratch directory.
func TestInterruptedSwapIsUndone(t *testing.T) {
	for k := 0; k <= 5; k++ { // jwt.secret, knowspace.db, blobs aside; blobs, knowspace.db in
		t.Run(fmt.Sprintf("after %d moves", k), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "blobs", "cd"), 0o700); err != nil {
				t.Fatal(err)
			}
			for name, body := range map[string]string{"knowspace.db": "old database", "jwt.secret": "old secret", "blobs/cd/y": "old blob"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, dir)
			halfSwapped(t, dir, k)
			if err := recoverSwap(dir); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, dir)
			for name, sum := range before {
				if after[name] != sum {
					t.Errorf("%s not put back", name)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, swapJournal)); !os.IsNotExist(err) {
				t.Errorf("journal stays: %v", err)
			}
			if err := recoverSwap(dir); err != nil {
				t.Errorf("a second start: %v", err)
			}
		})
	}
}

// TestServerStartsOnInterruptedSwap: a real data directory whose restore
// was killed midway through the swap (the old data aside, the new blobs in,
// the new database not yet) starts with its own files.
func TestServerStartsOnInterruptedSwap(t *testing.T) {
	needBinary(t)
	dir := t.TempDir()
	files := populate(t, dir, "old", 3)
	halfSwapped(t, dir, 4)
	readsBack(t, dir, "old", files)
	if left, _ := filepath.Glob(filepath.Join(dir, restorePrefix+"-*")); len(left) > 0 {
		t.Errorf("the restore's scratch directory survived the start: %v", left)
	}
}
