package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/knowspace/knowspace/internal/store"
)

// RawBody reads the latest uploaded bytes of file n, at most max bytes;
// ok is false when the file is larger.
func (t *Tree) RawBody(ctx context.Context, n store.Node, max int64) ([]byte, store.FileVersion, bool, error) {
	v, err := t.st.LatestVersion(ctx, n.ID, store.BodyRaw)
	if err != nil {
		return nil, v, false, fmt.Errorf("raw body of %s: %w", n.Path, err)
	}
	if v.Size > max {
		return nil, v, false, nil
	}
	f, err := t.blobs.Open(v.BlobHash)
	if err != nil {
		return nil, v, false, fmt.Errorf("open raw body of %s: %w", n.Path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, v, false, fmt.Errorf("read raw body of %s: %w", n.Path, err)
	}
	return b, v, int64(len(b)) <= max, nil
}

// FileText reads the whole text body of file n (L2 when parsed, else raw
// text), at most max bytes; "" for a file without a text body.
func (t *Tree) FileText(ctx context.Context, n store.Node, max int64) (string, error) {
	v, err := t.textBody(ctx, n)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return t.blobText(n, v, max)
}

// FileTexts reads the text bodies of files, at most max bytes each, with
// one query for all of them (a folder's overview reads every summary);
// files without a text body map to "".
func (t *Tree) FileTexts(ctx context.Context, ns []store.Node, max int64) (map[int64]string, error) {
	ids := make([]int64, len(ns))
	for i, n := range ns {
		ids[i] = n.ID
	}
	all, err := t.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(ns))
	for _, n := range ns {
		v, ok := TextBody(all[n.ID])
		if !ok {
			out[n.ID] = ""
			continue
		}
		text, err := t.blobText(n, v, max)
		if err != nil {
			return nil, err
		}
		out[n.ID] = text
	}
	return out, nil
}

func (t *Tree) blobText(n store.Node, v store.FileVersion, max int64) (string, error) {
	f, err := t.blobs.Open(v.BlobHash)
	if err != nil {
		return "", fmt.Errorf("open text of %s: %w", n.Path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return "", fmt.Errorf("read text of %s: %w", n.Path, err)
	}
	return string(b), nil
}
