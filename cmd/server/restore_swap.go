package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/knowspace/knowspace/internal/scratch"
)

// swapJournal, in the data directory, records a restore's swap while it
// runs. Found at a start, it means the swap was cut short: the old data,
// moved aside into the restore's scratch directory, goes back before
// anything opens the data directory, and before the sweep of leftovers
// could remove it.
const swapJournal = "restore-swap.json"

// swap is what a restore moves: the data directory's entries named Old into
// Dir/old, then the entries named New from Dir/new into the data directory.
// Entries are moved, not the data directory itself, which may be a mount
// point (a container's volume).
type swap struct {
	Dir string   `json:"dir"`
	Old []string `json:"old"`
	New []string `json:"new"`
}

// swapIn moves the names in aside that the data directory holds into
// work/old and puts everything in work/new in their place. A move that
// fails undoes those before it.
func swapIn(dataDir, work string, aside []string) error {
	s := swap{Dir: filepath.Base(work)}
	for _, n := range aside {
		if _, err := os.Lstat(filepath.Join(dataDir, n)); err == nil {
			s.Old = append(s.Old, n)
		}
	}
	entries, err := os.ReadDir(filepath.Join(work, "new"))
	if err != nil {
		return err
	}
	for _, e := range entries {
		s.New = append(s.New, e.Name())
	}
	if err := os.Mkdir(filepath.Join(work, "old"), 0o700); err != nil {
		return err
	}
	if err := writeJournal(dataDir, s); err != nil {
		return err
	}
	if err := s.move(dataDir); err != nil {
		if rerr := s.undo(dataDir); rerr != nil {
			return fmt.Errorf("swap: %w; putting the old data back: %v (the next start tries again)", err, rerr)
		}
		return fmt.Errorf("swap: %w", err)
	}
	if err := syncDir(dataDir); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dataDir, swapJournal)); err != nil {
		return fmt.Errorf("swap done, but %s stays and the next start would undo it: %w", swapJournal, err)
	}
	return syncDir(dataDir)
}

func (s swap) move(dataDir string) error {
	work := filepath.Join(dataDir, s.Dir)
	for _, n := range s.Old {
		if err := os.Rename(filepath.Join(dataDir, n), filepath.Join(work, "old", n)); err != nil {
			return err
		}
	}
	for _, n := range s.New {
		if err := os.Rename(filepath.Join(work, "new", n), filepath.Join(dataDir, n)); err != nil {
			return err
		}
	}
	return nil
}

// undo puts the data directory back as it was before move, wherever move
// stopped; run again after it stopped itself, it carries on.
func (s swap) undo(dataDir string) error {
	work := filepath.Join(dataDir, s.Dir)
	for _, n := range s.New {
		back := filepath.Join(work, "new", n)
		if _, err := os.Lstat(back); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(dataDir, n), back); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, n := range s.Old {
		from := filepath.Join(work, "old", n)
		if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(from, filepath.Join(dataDir, n)); err != nil {
			return err
		}
	}
	if err := syncDir(dataDir); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dataDir, swapJournal))
}

// recoverSwap undoes a swap a killed restore left halfway.
func recoverSwap(dataDir string) error {
	b, err := os.ReadFile(filepath.Join(dataDir, swapJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("restore journal: %w", err)
	}
	var s swap
	if err := json.Unmarshal(b, &s); err != nil || filepath.Base(s.Dir) != s.Dir || !strings.HasPrefix(s.Dir, restorePrefix+"-") {
		return fmt.Errorf("restore journal %s is damaged: put the data directory back by hand from %s-*/old", filepath.Join(dataDir, swapJournal), restorePrefix)
	}
	work := filepath.Join(dataDir, s.Dir)
	if scratch.Live(work) {
		return fmt.Errorf("a restore is swapping its data into %s: start again once it has finished", dataDir)
	}
	if err := s.undo(dataDir); err != nil {
		return fmt.Errorf("put back the data an interrupted restore moved to %s: %w", filepath.Join(work, "old"), err)
	}
	slog.Warn("undid the swap of a restore that was interrupted: the data dir holds what it held before", "restore", work)
	return nil
}

func writeJournal(dataDir string, s swap) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	part := filepath.Join(dataDir, swapJournal+".part")
	f, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(part, filepath.Join(dataDir, swapJournal))
	}
	if err != nil {
		os.Remove(part)
		return fmt.Errorf("restore journal: %w", err)
	}
	return syncDir(dataDir)
}

// syncDir makes the renames in dir durable before the next step relies on
// them.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
