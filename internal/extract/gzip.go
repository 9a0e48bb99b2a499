package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A gzip-compressed single file (a man page, changelog.Debian.gz, NEWS.gz)
// is read as the file it holds, named by the name without ".gz". The
// inflate is bounded: text stops at the text limit, a document at the
// inflate limit, and a stream that inflates past maxGzipRatio times its
// compressed size is a bomb, refused after a few megabytes.
const (
	gzipExt = ".gz"
	// maxGzipRatio is far above real text: the highest of the 23,621
	// gzipped files of a Debian system's /usr/share/doc and /usr/share/man
	// is 28×; a stream of one repeated byte reaches 1,032×.
	maxGzipRatio = 200
	// gzipRatioFloor is the output below which the ratio is not judged:
	// a small file of blank lines is no bomb.
	gzipRatioFloor = 1 << 20
	// textSlack is read past the text limit so the cut can fall on a line
	// end rather than inside a multi-byte character.
	textSlack = 4 << 10
)

// manSection is a man page's suffix: a section digit and letters
// (ls.1, Diff.3pm, openssl-errstr.1ssl, ncurses.3x).
var manSection = regexp.MustCompile(`^\.[1-9][a-z]{0,8}$`)

func init() {
	// Without a name (the formats table's callers) the inner file is text.
	formats[gzipExt] = func(ctx context.Context, raw []byte, lim Limits) (Result, error) {
		return extractGzip(ctx, "", raw, lim)
	}
}

// innerName is the name of the file a gzip file named name holds.
func innerName(name string) string { return name[:len(name)-len(gzipExt)] }

// extractGzip reads the file inside gzip file name as its inner name says.
func extractGzip(ctx context.Context, name string, raw []byte, lim Limits) (Result, error) {
	inner := innerName(name)
	ext := strings.ToLower(path.Ext(inner))
	switch {
	case ext == gzipExt:
		return Result{}, Fail(CodeUnsupported, "the file is compressed twice (gzip in gzip), which cannot be read as text")
	case knownBinary[ext] != "":
		return Result{}, Fail(CodeUnsupported, "%s is a %s, which cannot be read as text", inner, knownBinary[ext])
	}
	// Text and man pages stop at the text limit; a document is read whole
	// or not at all.
	document := formats[ext] != nil
	limit := int64(lim.MaxTextBytes) + textSlack
	if document {
		limit = lim.MaxInflateBytes
	}
	out, full, err := gunzip(ctx, raw, limit)
	if err != nil {
		return Result{}, err
	}
	if full && document {
		return Result{}, Fail(CodeTooLarge, "the compressed %s inflates past %d MB", inner, lim.MaxInflateBytes>>20)
	}
	if full {
		out = cutAtLine(out, lim.MaxTextBytes)
	}
	var res Result
	switch {
	case document:
		res, err = extractNamed(ctx, inner, out, lim)
	case manSection.MatchString(ext) && looksLikeRoff(out):
		res, err = extractMan(out)
	default:
		res, err = extractText(ctx, out, lim)
		var e *Error
		if errors.As(err, &e) && e.Code == CodeUnsupported {
			return Result{}, Fail(CodeUnsupported, "its gzip-compressed content is binary, not text, and of no format that can be read")
		}
	}
	if err != nil {
		return Result{}, err
	}
	res.Extractor = "gzip+" + res.Extractor
	if full {
		res.Truncated = true
		res.TruncatedAt = int64(utf8.RuneCountInString(res.Text))
	}
	return res, nil
}

// gunzip inflates raw up to limit bytes; full says the stream had more.
// Concatenated members are one stream, as gzip -d reads them.
func gunzip(ctx context.Context, raw []byte, limit int64) (out []byte, full bool, err error) {
	in := &countingReader{r: bytes.NewReader(raw)}
	zr, err := gzip.NewReader(in)
	if err != nil {
		return nil, false, Fail(CodeParseFailed, "not a gzip file, or its header is damaged")
	}
	var b bytes.Buffer
	buf := make([]byte, 64<<10)
	for {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		n, rerr := zr.Read(buf[:min(int64(len(buf)), limit+1-int64(b.Len()))])
		b.Write(buf[:n])
		if out := int64(b.Len()); out > gzipRatioFloor && out > maxGzipRatio*in.n {
			return nil, false, Fail(CodeTooLarge, "it inflates more than %d times its compressed size (a gzip bomb)", maxGzipRatio)
		}
		if int64(b.Len()) > limit {
			return b.Bytes()[:limit], true, nil
		}
		switch {
		case errors.Is(rerr, io.EOF):
			return b.Bytes(), false, nil
		case errors.Is(rerr, io.ErrUnexpectedEOF):
			return nil, false, Fail(CodeParseFailed, "the gzip stream is damaged: it ends before its last block (truncated)")
		case rerr != nil:
			return nil, false, Fail(CodeParseFailed, "the gzip stream is damaged: %v", rerr)
		}
	}
}

// countingReader counts the compressed bytes the inflater has taken; it
// keeps ReadByte so that gzip reads it directly, with no buffer ahead.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// cutAtLine cuts text read past the limit at its last line end before
// max bytes, or at max when there is none.
func cutAtLine(b []byte, max int) []byte {
	b = b[:min(len(b), max)]
	if i := bytes.LastIndexByte(b, '\n'); i > 0 {
		return b[:i+1]
	}
	return b
}
