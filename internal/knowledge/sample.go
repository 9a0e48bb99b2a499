package knowledge

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/kb"
)

//go:embed all:sample
var sampleFS embed.FS

// SeedSample gives a new user the small sample tree, so the app is useful in
// the first minute.
func (t *Tree) SeedSample(ctx context.Context, c kb.Caller) error {
	return fs.WalkDir(sampleFS, "sample", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "sample" {
			return err
		}
		rel := strings.TrimPrefix(p, "sample/")
		if d.IsDir() {
			_, err := t.Mkdir(ctx, c, kb.NodeURI(c.Username, rel, true))
			return err
		}
		f, err := sampleFS.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		staged, err := t.Stage(path.Base(rel), f)
		if err != nil {
			return fmt.Errorf("seed %s: %w", rel, err)
		}
		dir := strings.TrimPrefix(path.Dir(rel), ".")
		_, err = t.CommitUpload(ctx, c, kb.NodeURI(c.Username, dir, true), []Staged{staged}, ConflictFail)
		return err
	})
}
