package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// FsckReport is what Fsck found; Damaged tells whether anything referenced
// is missing or corrupt (orphans waste space but lose nothing).
type FsckReport struct {
	Referenced int      `json:"referenced"`
	Missing    []string `json:"missing"`
	Corrupt    []string `json:"corrupt"`
	Orphans    []string `json:"orphans"`
}

// Damaged reports missing or corrupt referenced blobs.
func (r FsckReport) Damaged() bool { return len(r.Missing)+len(r.Corrupt) > 0 }

// Fsck checks that every referenced blob exists and hashes to its name,
// and lists stored blobs nothing references.
func (t *Tree) Fsck(ctx context.Context) (FsckReport, error) {
	refs, err := t.st.ReferencedBlobs(ctx)
	if err != nil {
		return FsckReport{}, err
	}
	rep := FsckReport{Referenced: len(refs)}
	ref := make(map[string]bool, len(refs))
	for _, h := range refs {
		ref[h] = true
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		f, err := t.blobs.Open(h)
		if err != nil {
			rep.Missing = append(rep.Missing, h)
			continue
		}
		sum := sha256.New()
		_, err = io.Copy(sum, f)
		f.Close()
		if err != nil || hex.EncodeToString(sum.Sum(nil)) != h {
			rep.Corrupt = append(rep.Corrupt, h)
		}
	}
	stored, err := t.blobs.Hashes()
	if err != nil {
		return rep, err
	}
	for _, h := range stored {
		if !ref[h] {
			rep.Orphans = append(rep.Orphans, h)
		}
	}
	return rep, nil
}
