package archive

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"io"

	"github.com/knowspace/knowspace/internal/kb"
)

// counting tells how many compressed bytes the decoder has taken, for the
// ratio check and the progress.
type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (w *walker) tar(f io.Reader, size int64, gz bool) error {
	src := &counting{r: f}
	var r io.Reader = bufio.NewReaderSize(src, 8<<10)
	if gz {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return refuse(CodeInvalid, "not a readable gzip stream: %v", err)
		}
		defer zr.Close()
		r = zr
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return refuse(CodeInvalid, "not a readable tar archive: %v", err)
		}
		if err := w.tarEntry(tr, h, src, gz); err != nil {
			return err
		}
		if size > 0 {
			w.progress(min(float64(src.n)/float64(size), 1))
		}
	}
}

func (w *walker) tarEntry(tr *tar.Reader, h *tar.Header, src *counting, gz bool) error {
	raw := DecodeName([]byte(h.Name))
	if err := w.count(raw); err != nil {
		return err
	}
	segs, err := splitName(raw)
	if err != nil {
		return err
	}
	switch h.Typeflag {
	case tar.TypeSymlink, tar.TypeLink:
		return refuse(CodeLink, "%q is a link to %q; links are not imported", kb.Clip(raw, 80), kb.Clip(h.Linkname, 80))
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		w.skip(raw, "a device or pipe, not a file")
		return nil
	case tar.TypeDir:
		if len(segs) == 0 {
			return nil
		}
		return w.visit(Entry{Path: segs, Raw: raw, Dir: true}, nil)
	case tar.TypeReg:
	default:
		w.skip(raw, "an entry of a type other than file or folder")
		return nil
	}
	if len(segs) == 0 {
		return refuse(CodeUnsafePath, "a file entry has no name")
	}
	e := Entry{Path: segs, Raw: raw, Size: h.Size}
	if err := w.declare(raw, e.Size); err != nil {
		return err
	}
	var body io.Reader = tr
	if gz {
		body = &ratioCheck{r: tr, src: src, start: src.n, max: w.lim.MaxRatio, name: raw}
	}
	return w.visit(e, body)
}

// ratioCheck refuses an entry that inflates past the ratio: a gzip stream
// has no per-entry sizes to check beforehand, so the check runs as bytes
// come out. The decoder's read-ahead makes the compressed count a little
// generous, never stingy.
type ratioCheck struct {
	r     io.Reader
	src   *counting
	start int64
	out   int64
	max   int64
	name  string
}

func (c *ratioCheck) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.out += int64(n)
	if c.out > ratioFloor && c.out > c.max*max(c.src.n-c.start, 1) {
		return n, refuse(CodeBomb, "%q inflates past a ratio of %d:1", kb.Clip(c.name, 80), c.max)
	}
	if err != nil && err != io.EOF {
		return n, refuse(CodeInvalid, "%q is corrupt: %v", kb.Clip(c.name, 80), err)
	}
	return n, err
}
