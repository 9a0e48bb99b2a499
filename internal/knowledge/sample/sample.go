// Package sample gives a new account the small sample tree, so the app is
// useful in the first minute.
package sample

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
)

//go:embed all:files
var files embed.FS

// Seeder puts the sample tree in a new account (auth's Seeder).
type Seeder struct{ Tree *knowledge.Tree }

// SeedSample uploads the sample tree into c's root.
func (s Seeder) SeedSample(ctx context.Context, c kb.Caller) error {
	t := s.Tree
	return fs.WalkDir(files, "files", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "files" {
			return err
		}
		rel := strings.TrimPrefix(p, "files/")
		if d.IsDir() {
			_, err := t.Mkdir(ctx, c, kb.NodeURI(c.Username, rel, true))
			return err
		}
		f, err := files.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		staged, err := t.Stage(path.Base(rel), f)
		if err != nil {
			return fmt.Errorf("seed %s: %w", rel, err)
		}
		dir := strings.TrimPrefix(path.Dir(rel), ".")
		_, err = t.CommitUpload(ctx, c, kb.NodeURI(c.Username, dir, true), []knowledge.Staged{staged}, knowledge.ConflictFail)
		return err
	})
}
