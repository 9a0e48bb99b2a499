package blob

import (
	"fmt"
	"os"
)

// fewToSync is how many staged files Sync flushes one by one; past it,
// one flush of the whole file system costs less than a wait per file
// (0.3 ms each on this project's test machine: 5 s for an import of
// 10,000 files and their texts).
const fewToSync = 32

// Sync makes the staged bytes of ps durable before a row names them: a
// crash after the row's commit must not find a blob with its bytes lost.
// Files staged with PutLater and synced together save a disk flush each.
func Sync(ps ...*Pending) error {
	var todo []*Pending
	for _, p := range ps {
		if p != nil && !p.synced {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if len(todo) > fewToSync {
		if ok, err := syncFS(todo[0].tmpPath); ok || err != nil {
			if err != nil {
				return fmt.Errorf("sync staged blobs: %w", err)
			}
			for _, p := range todo {
				p.synced = true
			}
			return nil
		}
	}
	for _, p := range todo {
		if err := syncFile(p.tmpPath); err != nil {
			return fmt.Errorf("sync staged blob: %w", err)
		}
		p.synced = true
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
