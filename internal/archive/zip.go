package archive

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/knowspace/knowspace/internal/kb"
)

func (w *walker) zip(f io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return refuse(CodeInvalid, "not a readable zip archive: %v", err)
	}
	// The central directory tells the count and sizes before any byte is
	// inflated, so most refusals cost nothing.
	if len(zr.File) > w.lim.MaxEntries {
		return refuse(CodeTooMany, "the archive has %d entries, more than %d (import.max_entries)", len(zr.File), w.lim.MaxEntries)
	}
	for i, zf := range zr.File {
		if err := w.zipEntry(zf); err != nil {
			return err
		}
		w.progress(float64(i+1) / float64(len(zr.File)))
	}
	return nil
}

func (w *walker) zipEntry(zf *zip.File) error {
	raw := DecodeName([]byte(zf.Name))
	if err := w.count(raw); err != nil {
		return err
	}
	segs, err := splitName(raw)
	if err != nil {
		return err
	}
	mode := zf.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return refuse(CodeLink, "%q is a symbolic link; links are not imported", kb.Clip(raw, 80))
	case mode&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0:
		w.skip(raw, "a device, pipe or socket, not a file")
		return nil
	}
	if len(segs) == 0 {
		return nil // "./" and the like
	}
	e := Entry{Path: segs, Raw: raw, Dir: mode.IsDir()}
	if e.Dir {
		return w.visit(e, nil)
	}
	if zf.UncompressedSize64 > 1<<62 {
		return refuse(CodeEntryTooLarge, "%q declares an impossible size", kb.Clip(raw, 80))
	}
	e.Size = int64(zf.UncompressedSize64)
	// The ratio first: a bomb is named a bomb even when it is also too big.
	if e.Size > ratioFloor && e.Size > w.lim.MaxRatio*int64(max(zf.CompressedSize64, 1)) {
		return refuse(CodeBomb, "%q would unpack %d bytes from %d, a ratio past %d:1", kb.Clip(raw, 80), e.Size, zf.CompressedSize64, w.lim.MaxRatio)
	}
	if err := w.declare(raw, e.Size); err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return refuse(CodeInvalid, "%q cannot be read: %v", kb.Clip(raw, 80), err)
	}
	defer rc.Close()
	// archive/zip refuses more bytes than declared, so the checks above
	// hold for what is actually inflated.
	err = w.visit(e, &zipBody{r: rc, name: raw})
	var ze *Error
	if errors.As(err, &ze) {
		return ze
	}
	return err
}

// zipBody turns a corrupt stream into a refusal naming the entry.
type zipBody struct {
	r    io.Reader
	name string
}

func (b *zipBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		return n, refuse(CodeInvalid, "%q is corrupt: %v", kb.Clip(b.name, 80), fmt.Sprint(err))
	}
	return n, err
}
