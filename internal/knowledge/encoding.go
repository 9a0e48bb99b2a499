package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// decoded is the UTF-8 text of an upload in a legacy encoding, or of a
// document read with no parser (a gzipped man page or changelog), staged
// before the upload's transaction so that reading and decoding up to the
// upload limit never holds the database's write lock.
type decoded struct {
	body *blob.Pending
	enc  string
	// extracted says how a document's text was made; nil for decoded text.
	extracted *extract.Result
}

// decodeStaged prepares the decoded text of a staged file in a legacy
// encoding (GBK, Shift-JIS, UTF-16, ...) or of a document that needs no
// parser; nil for UTF-8 text, other documents and binary files, which are
// left as they are.
func (t *Tree) decodeStaged(f Staged) (*decoded, error) {
	if extract.Supported(f.Name) && !extract.HasParser(f.Name) {
		return t.extractStaged(f)
	}
	info := f.pending.Info
	if info.ValidUTF8 && !info.HasNUL || extract.IsDocument(f.Name) || !extract.MayBeText(info.Head, info.HasNUL) {
		return nil, nil // most binary files stop here, before reading them
	}
	raw, err := readStaged(f)
	if err != nil {
		return nil, err
	}
	text, enc, ok := extract.DecodeText(raw)
	if !ok {
		return nil, nil // binary: no text body until a parse finds one
	}
	body, err := t.stageTextLater(text)
	if err != nil {
		return nil, fmt.Errorf("stage decoded text of %s: %w", f.Name, err)
	}
	return &decoded{body: body, enc: enc}, nil
}

// decodeAll decodes the staged files on every core: an archive of
// thousands of gzipped man pages spent seconds of one core here.
func (t *Tree) decodeAll(files []Staged) ([]*decoded, error) {
	texts := make([]*decoded, len(files))
	errs := make([]error, len(files))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				texts[i], errs[i] = t.decodeStaged(files[i])
			}
		})
	}
	wg.Wait()
	return texts, errors.Join(errs...)
}

// extractStaged reads a document whose extraction needs no parser (see
// extract.HasParser: it is linear in the file and bounded) before the
// upload's transaction, so its text is there when the upload answers and
// no extraction job is queued for it. A failure is left to the job, which
// records why.
func (t *Tree) extractStaged(f Staged) (*decoded, error) {
	raw, err := readStaged(f)
	if err != nil {
		return nil, err
	}
	res, err := extract.Extract(context.Background(), f.Name, raw, extract.Limits{})
	if err != nil {
		return nil, nil
	}
	body, err := t.stageTextLater(res.Text)
	if err != nil {
		return nil, fmt.Errorf("stage extracted text of %s: %w", f.Name, err)
	}
	// The text is in its blob: an import holds the results of thousands
	// of files until its commit.
	res.Text = ""
	return &decoded{body: body, extracted: &res}, nil
}

func readStaged(f Staged) ([]byte, error) {
	r, err := f.pending.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s to decode: %w", f.Name, err)
	}
	defer r.Close()
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s to decode: %w", f.Name, err)
	}
	return raw, nil
}

// saveDecoded gives a just-uploaded file its decoded text as an L2 body
// sourced from the raw version, and records the encoding on the raw
// version. read, search, the preview and compile then page through decoded
// text with code-point offsets, while GET /resources/raw still serves the
// bytes as uploaded.
func saveDecoded(ctx context.Context, tx *store.Store, n store.Node, d *decoded) error {
	if d == nil {
		return nil
	}
	src, err := tx.LatestVersion(ctx, n.ID, store.BodyRaw)
	if err != nil {
		return err
	}
	if err := CommitBlobs(ctx, tx, d.body); err != nil {
		return err
	}
	if d.extracted == nil {
		if err := tx.SetEncoding(ctx, src.ID, d.enc); err != nil {
			return err
		}
	}
	return tx.AddVersion(ctx, d.version(n, src))
}

// version is the L2 body d makes of node n's upload src.
func (d *decoded) version(n store.Node, src store.FileVersion) *store.FileVersion {
	if d.extracted != nil {
		return l2Version(n, d.body.Info, *d.extracted, src)
	}
	return &store.FileVersion{NodeID: n.ID, Body: store.BodyL2, BlobHash: d.body.Hash,
		Size: d.body.Size, IsText: true, CharCount: d.body.Chars, MediaType: "text/plain; charset=utf-8",
		SourceVersionID: &src.ID, Encoding: d.enc}
}

// encodingOf names the encoding of a file's uploaded bytes when they are
// text: the recorded legacy encoding, else UTF-8 for a text upload; "" for
// documents and binary files.
func encodingOf(bodies map[string]store.FileVersion) string {
	raw, ok := bodies[store.BodyRaw]
	switch {
	case !ok:
		return ""
	case raw.Encoding != "":
		return raw.Encoding
	case raw.IsText:
		return extract.EncUTF8
	}
	return ""
}
