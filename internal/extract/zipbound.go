package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"
)

// Bounds of the zip-based formats (DOCX, PPTX, XLSX, ODT, EPUB). A zip
// bomb or a pathological part ends with too_large or parse_failed before
// it can grow memory: parts are streamed, never inflated whole, and the XML
// walker holds one token at a time.
const (
	maxZipEntries = 20000
	// maxXMLDepth is far above any real document (Word nests tables in
	// tables a few levels deep) and keeps the decoder's stack small.
	maxXMLDepth = 256
	// maxSmallPart bounds parts read whole: relationships, manifests,
	// shared strings lists.
	maxSmallPart = 16 << 20
	// maxTextRun bounds one run of bytes without markup. Office formats
	// keep text in short runs and cells; a longer run is a bomb, and the
	// XML decoder would hold all of it as one token.
	maxTextRun = 8 << 20
)

var errFull = errors.New("text limit reached")

// zipDoc is an opened zip-based document with its inflate budget.
type zipDoc struct {
	files    map[string]*zip.File
	order    []string
	lim      Limits
	perPart  int64
	inflated int64 // bytes inflated so far, all parts
}

func openZip(raw []byte, lim Limits, kind string) (*zipDoc, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, Fail(CodeParseFailed, "not a valid %s file (its zip container is damaged)", kind)
	}
	if len(zr.File) > maxZipEntries {
		return nil, Fail(CodeTooLarge, "the %s has %d parts, more than the %d allowed", kind, len(zr.File), maxZipEntries)
	}
	d := &zipDoc{files: make(map[string]*zip.File, len(zr.File)), lim: lim, perPart: max(lim.MaxInflateBytes/4, 1<<20)}
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		if _, dup := d.files[name]; !dup {
			d.order = append(d.order, name)
		}
		d.files[name] = f
	}
	return d, nil
}

func (d *zipDoc) has(name string) bool { return d.files[name] != nil }

// open streams one part, failing with too_large once the part or the whole
// document inflates past its budget.
func (d *zipDoc) open(name string) (io.ReadCloser, error) {
	f := d.files[name]
	if f == nil {
		return nil, fmt.Errorf("%s is missing", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, Fail(CodeParseFailed, "part %s cannot be opened: %v", name, err)
	}
	return &boundedPart{rc: rc, doc: d, name: name}, nil
}

// readSmall reads a part whole, for parts that are lists, not text.
func (d *zipDoc) readSmall(name string) ([]byte, error) {
	rc, err := d.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxSmallPart+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSmallPart {
		return nil, Fail(CodeTooLarge, "part %s inflates past %d MB", name, maxSmallPart>>20)
	}
	return b, nil
}

type boundedPart struct {
	rc   io.ReadCloser
	doc  *zipDoc
	name string
	n    int64
}

func (p *boundedPart) Read(b []byte) (int, error) {
	n, err := p.rc.Read(b)
	p.n += int64(n)
	p.doc.inflated += int64(n)
	switch {
	case p.n > p.doc.perPart:
		return n, Fail(CodeTooLarge, "part %s inflates past %d MB (a zip bomb or an oversized document)", p.name, p.doc.perPart>>20)
	case p.doc.inflated > p.doc.lim.MaxInflateBytes:
		return n, Fail(CodeTooLarge, "the document inflates past %d MB in all (a zip bomb or an oversized document)", p.doc.lim.MaxInflateBytes>>20)
	case err != nil && !errors.Is(err, io.EOF):
		return n, Fail(CodeParseFailed, "part %s is damaged: %v", p.name, err)
	}
	return n, err
}

func (p *boundedPart) Close() error { return p.rc.Close() }

// walkPart streams the XML of one part through fn with each token's depth
// (the start element's own depth, 1 for the root). Names are raw: Space is
// the prefix as written, which is enough to tell w:t from a:t. fn may
// return errFull to stop early.
func (d *zipDoc) walkPart(ctx context.Context, name string, fn func(tok xml.Token, depth int) error) error {
	rc, err := d.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return walkXML(ctx, rc, name, fn)
}

func walkXML(ctx context.Context, r io.Reader, name string, fn func(tok xml.Token, depth int) error) error {
	dec := xml.NewDecoder(&runGuard{r: r, name: name})
	dec.Strict = false
	dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) { return in, nil }
	depth := 0
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return e
			}
			return Fail(CodeParseFailed, "part %s is not well-formed XML: %v", name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxXMLDepth {
				return Fail(CodeParseFailed, "part %s nests elements more than %d deep, which no real document does", name, maxXMLDepth)
			}
			err = fn(t, depth)
		case xml.EndElement:
			err = fn(t, depth)
			depth--
		case xml.CharData:
			err = fn(t, depth)
		}
		if err != nil {
			return err
		}
	}
}

// runGuard fails a part once maxTextRun bytes pass without a '<'.
type runGuard struct {
	r    io.Reader
	name string
	run  int
}

func (g *runGuard) Read(b []byte) (int, error) {
	n, err := g.r.Read(b)
	if i := bytes.LastIndexByte(b[:n], '<'); i >= 0 {
		g.run = n - i - 1
	} else {
		g.run += n
	}
	if g.run > maxTextRun {
		return n, Fail(CodeTooLarge, "part %s has a run of text over %d MB without markup (a zip bomb or a damaged file)", g.name, maxTextRun>>20)
	}
	return n, err
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// resolvePart turns a relationship target into a part name.
func resolvePart(base, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return path.Join(path.Dir(base), target)
}

// sink collects extracted text up to a byte limit; past it, writes return
// errFull so extractors stop reading, and the result says it was cut.
type sink struct {
	b    strings.Builder
	max  int
	full bool
}

func newSink(lim Limits) *sink { return &sink{max: lim.MaxTextBytes} }

func (s *sink) WriteString(str string) error {
	if s.full {
		return errFull
	}
	if room := s.max - s.b.Len(); len(str) > room {
		for room > 0 && !utf8.RuneStart(str[room]) {
			room--
		}
		s.b.WriteString(str[:room])
		s.full = true
		return errFull
	}
	s.b.WriteString(str)
	return nil
}

func (s *sink) Write(b []byte) error {
	if room := s.max - s.b.Len(); len(b) > room {
		b = b[:min(len(b), room+utf8.UTFMax)] // WriteString cuts on a rune boundary
	}
	return s.WriteString(string(b))
}

// newline ends a line unless the text already ends one.
func (s *sink) newline() error {
	if s.b.Len() == 0 || strings.HasSuffix(s.b.String(), "\n") {
		return nil
	}
	return s.WriteString("\n")
}

// blankLine separates blocks by one empty line.
func (s *sink) blankLine() error {
	str := s.b.String()
	if len(str) == 0 || strings.HasSuffix(str, "\n\n") {
		return nil
	}
	if strings.HasSuffix(str, "\n") {
		return s.WriteString("\n")
	}
	return s.WriteString("\n\n")
}

// result is the collected text, trimmed, marked truncated when the limit
// cut it.
func (s *sink) result(format, extractor string) Result {
	r := Result{Text: strings.TrimSpace(s.b.String()), Format: format, Extractor: extractor}
	if s.full {
		r.Truncated = true
		r.TruncatedAt = int64(utf8.RuneCountInString(r.Text))
	}
	return r
}

// stopped tells a walker's error apart from the sink filling up, which
// ends extraction with what was read.
func stopped(err error) bool { return err != nil && !errors.Is(err, errFull) }
