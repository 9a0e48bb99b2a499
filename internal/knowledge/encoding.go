package knowledge

import (
	"context"
	"fmt"
	"io"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// saveDecoded gives a just-uploaded text file in a legacy encoding (GBK,
// Shift-JIS, UTF-16, ...) its decoded UTF-8 text as an L2 body sourced
// from the raw version, and records the encoding on the raw version. read,
// search, the preview and compile then page through decoded text with
// code-point offsets, while GET /resources/raw still serves the bytes as
// uploaded. UTF-8 text, documents and binary files are left as they are.
func (t *Tree) saveDecoded(ctx context.Context, tx *store.Store, n store.Node, info blob.Info) error {
	if info.ValidUTF8 && !info.HasNUL || extract.IsDocument(n.Name) || !extract.MayBeText(info.Head, info.HasNUL) {
		return nil // most binary files stop here, before reading them
	}
	f, err := t.blobs.Open(info.Hash)
	if err != nil {
		return fmt.Errorf("open %s to decode: %w", n.Path, err)
	}
	raw, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("read %s to decode: %w", n.Path, err)
	}
	text, enc, ok := extract.DecodeText(raw)
	if !ok {
		return nil // binary: no text body until a parse finds one
	}
	src, err := tx.LatestVersion(ctx, n.ID, store.BodyRaw)
	if err != nil {
		return err
	}
	body, err := t.stageText(text)
	if err != nil {
		return fmt.Errorf("stage decoded text of %s: %w", n.Path, err)
	}
	defer body.Abort()
	if err := commitBlobs(ctx, tx, body); err != nil {
		return err
	}
	if err := tx.SetEncoding(ctx, src.ID, enc); err != nil {
		return err
	}
	return tx.AddVersion(ctx, &store.FileVersion{NodeID: n.ID, Body: store.BodyL2, BlobHash: body.Hash,
		Size: body.Size, IsText: true, CharCount: body.Chars, MediaType: "text/plain; charset=utf-8",
		SourceVersionID: &src.ID, Encoding: enc})
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
