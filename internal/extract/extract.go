// Package extract turns a file's raw bytes into its text body: one file per
// format, encodings detected and decoded, every result bounded in size and
// every failure classified by a code the user can act on. It knows nothing
// of the tree, the store or jobs.
package extract

import (
	"context"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"unicode/utf8"
)

// Codes of a failed extraction (SPEC §7, issue 11); they become the job's
// error.code.
const (
	CodeParseFailed = "parse_failed"
	CodeTimeout     = "parse_timeout"
	CodeEncrypted   = "encrypted"
	CodeNoText      = "no_text"
	CodeUnsupported = "unsupported_format"
	CodeTooLarge    = "too_large"
)

// Limits bound one extraction. Zero values take the defaults.
type Limits struct {
	// MaxTextBytes caps the extracted text; the rest is cut and the Result
	// says where.
	MaxTextBytes int
	// MaxInflateBytes caps what a zip-based format may decompress in all.
	MaxInflateBytes int64
	// OCR reads images and the scanned pages of PDFs.
	OCR OCR `json:"ocr"`
	// Pdftotext is poppler's text extractor. A PDF's text comes from it
	// when it is set (resolved on the PATH, like OCR's tools, since the
	// extraction child has none), and from PDFium when it is absent or
	// fails on the file. PDFiumOnly keeps PDFium even when it is installed.
	Pdftotext  string `json:"pdftotext,omitempty"`
	PDFiumOnly bool   `json:"pdfium_only,omitempty"`
	// Progress, when set, hears how far a long document's reading has
	// come (Isolation.RunReporting carries it from the child).
	Progress func(Progress) `json:"-"`
}

// Defaults for Limits.
const (
	DefaultMaxTextBytes    = 20 << 20
	DefaultMaxInflateBytes = 256 << 20
	maxMessageChars        = 500
)

func (l Limits) withDefaults() Limits {
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultMaxTextBytes
	}
	if l.MaxInflateBytes <= 0 {
		l.MaxInflateBytes = DefaultMaxInflateBytes
	}
	l.OCR = l.OCR.Resolve()
	return l.resolvePdftotext()
}

// resolvePdftotext fills Pdftotext from the PATH when it is empty.
func (l Limits) resolvePdftotext() Limits {
	switch {
	case l.PDFiumOnly:
		l.Pdftotext = ""
	case l.Pdftotext == "":
		if p, err := exec.LookPath("pdftotext"); err == nil {
			l.Pdftotext = p
		}
	}
	return l
}

// Result is a file's text with what is known of how it was made; it goes
// into the provenance of the L2 body.
type Result struct {
	Text      string `json:"text,omitempty"`
	Format    string `json:"format"`             // "pdf", "docx", "text", "html", ...
	Encoding  string `json:"encoding,omitempty"` // text formats: the source encoding, e.g. "gb18030"
	Extractor string `json:"extractor"`          // engine name and version, e.g. "pdfium/6721"
	// Source is "ocr" when some or all of Text was recognized from pixels
	// (OCR says which pages and how confidently); empty when every
	// character came from the file's own text.
	Source string   `json:"source,omitempty"`
	OCR    *OCRInfo `json:"ocr,omitempty"`
	// Pages counts pages, slides or sheets; 0 when the format has none.
	Pages int `json:"pages,omitempty"`
	// PageStarts says where each PDF page's text begins in Text (pages
	// without text are left out), so a window of the text can name the
	// pages it shows.
	PageStarts []PageStart `json:"page_starts,omitempty"`
	// PageErrors lists the pages (1-based) that were lost, with why; the
	// rest of the document is still in Text.
	PageErrors []PageError `json:"page_errors,omitempty"`
	Truncated  bool        `json:"truncated,omitempty"`
	// TruncatedAt is the number of code points kept when Truncated.
	TruncatedAt int64 `json:"truncated_at,omitempty"`
}

// PageError is one page of a document that yielded no text.
type PageError struct {
	Page int `json:"page"`
	// Last is the last page of a run of pages lost for the same reason
	// (pages past the OCR cap), when it is more than Page.
	Last   int    `json:"last,omitempty"`
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason"`
}

// PageStart is where page Page (1-based) begins in a Result's Text, in
// code points.
type PageStart struct {
	Page   int   `json:"page"`
	Offset int64 `json:"offset"`
}

// SourceOCR is Result.Source for text recognized from pixels.
const SourceOCR = "ocr"

// Error is a classified extraction failure. Message is valid UTF-8, at most
// 500 characters, and never quotes the file's bytes.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Fail builds an Error, making the message safe to store and show.
func Fail(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: SafeMessage(fmt.Sprintf(format, args...))}
}

// SafeMessage makes s valid UTF-8 without control characters and at most
// 500 code points, so it can go into any database column and any page.
func SafeMessage(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > maxMessageChars {
		s = string([]rune(s)[:maxMessageChars-1]) + "…"
	}
	return s
}

// format extracts one kind of file. It honours ctx between units of work
// (pages, parts, elements) and returns an *Error for anything the user
// should hear about.
type format func(ctx context.Context, raw []byte, lim Limits) (Result, error)

// formats maps a lower-case extension to its extractor. Extensions absent
// here are text when they decode as text (see DecodeText) and unsupported
// otherwise.
var formats = map[string]format{
	".pdf":   extractPDF,
	".docx":  extractDOCX,
	".html":  extractHTML,
	".htm":   extractHTML,
	".xhtml": extractHTML,
	".rtf":   extractRTF,
	".pptx":  extractPPTX,
	".xlsx":  extractXLSX,
	".epub":  extractEPUB,
	".odt":   extractODT,
}

// Images are read by OCR.
func init() {
	for _, ext := range imageFormats {
		formats[ext] = extractImage
	}
}

// HasParser reports whether name is read by a format parser (PDF, office
// formats, HTML, ...) rather than decoded as plain text. Only parsers can
// be driven into loops or huge allocations by a hostile file, so only they
// need the child process; decoding text is linear in its size.
// A gzip file has one when the file it holds does: inflating is linear
// and bounded.
func HasParser(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	if ext == gzipExt {
		inner := strings.ToLower(path.Ext(innerName(name)))
		return inner != gzipExt && formats[inner] != nil
	}
	return formats[ext] != nil
}

// Register adds or replaces the extractor of an extension (lower case, with
// its dot). It must be called before extractions start; tests use it for
// formats that misbehave on purpose.
func Register(ext string, f func(ctx context.Context, raw []byte, lim Limits) (Result, error)) {
	formats[ext] = f
}

// markupText names formats whose raw bytes stay readable as their own text
// until a parse replaces them with the extracted text: a web page's source
// is still worth reading and searching, where RTF control words are not.
var markupText = map[string]bool{".html": true, ".htm": true, ".xhtml": true}

// knownBinary names formats we recognise but cannot read, so the error can
// say what the file is.
var knownBinary = map[string]string{
	".doc": "Word 97-2003 document", ".xls": "Excel 97-2003 workbook", ".ppt": "PowerPoint 97-2003 presentation",
	".zip": "zip archive", ".7z": "7-Zip archive", ".rar": "RAR archive",
	".tar": "tar archive (import it as an archive instead)", ".tgz": "gzip-compressed tar archive (import it as an archive instead)",
	".mp3": "audio file", ".wav": "audio file", ".mp4": "video file", ".mov": "video file",
}

// IsDocument reports whether name is a format whose bytes are never their
// own text body, even when they happen to decode as text: the parse step
// extracts it. HTML is not one (see markupText).
func IsDocument(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return formats[ext] != nil && !markupText[ext] || knownBinary[ext] != ""
}

// Supported reports whether Extract has an extractor for name's format
// (beyond plain text).
func Supported(name string) bool { return formats[strings.ToLower(path.Ext(name))] != nil }

// Extract returns the text body of a file from its name and raw bytes, or
// an *Error saying why it has none. It runs in the calling goroutine; use
// Isolated to run it in a child process with a deadline and a memory
// ceiling.
func Extract(ctx context.Context, name string, raw []byte, lim Limits) (res Result, err error) {
	lim = lim.withDefaults()
	// A parser bug on one hostile file is that file's failure, never the
	// process's.
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{}, Fail(CodeParseFailed, "%s could not be read: the parser failed on malformed content", name)
		}
	}()
	res, err = extractNamed(ctx, name, raw, lim)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Result{}, ctxErr
		}
		if e, ok := err.(*Error); ok {
			return Result{}, &Error{Code: e.Code, Message: SafeMessage(name + ": " + e.Message)}
		}
		return Result{}, Fail(CodeParseFailed, "%s could not be read: %v", name, err)
	}
	res.Text = strings.ToValidUTF8(res.Text, "\uFFFD")
	res.cap(lim.MaxTextBytes)
	if strings.TrimSpace(res.Text) == "" {
		for _, pe := range res.PageErrors {
			if pe.Code == CodeOCRTimeout {
				return Result{}, Fail(CodeTimeout, "%s has no text layer, and OCR ran out of the time budget (parse_timeout) before it read a page", name)
			}
		}
		if res.Format == "pdf" {
			return Result{}, Fail(CodeNoText, "%s has no text layer (scanned or image-only pages); %s", name, noOCRHint(lim.OCR))
		}
		if res.Source == SourceOCR {
			return Result{}, Fail(CodeNoText, "%s: OCR found no text in it", name)
		}
		return Result{}, Fail(CodeNoText, "%s has no extractable text", name)
	}
	return res, nil
}

// extractNamed reads raw as its name's extension says.
func extractNamed(ctx context.Context, name string, raw []byte, lim Limits) (Result, error) {
	ext := strings.ToLower(path.Ext(name))
	switch f := formats[ext]; {
	case ext == gzipExt:
		return extractGzip(ctx, name, raw, lim)
	case f != nil:
		return f(ctx, raw, lim)
	case knownBinary[ext] != "":
		return Result{}, Fail(CodeUnsupported, "%s is a %s, which cannot be read as text", name, knownBinary[ext])
	default:
		return extractText(ctx, raw, lim)
	}
}

// cap cuts Text to at most n bytes on a code point boundary.
func (r *Result) cap(n int) {
	if len(r.Text) <= n {
		return
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(r.Text[cut]) {
		cut--
	}
	r.Text = r.Text[:cut]
	r.Truncated = true
	r.TruncatedAt = int64(utf8.RuneCountInString(r.Text))
	for i, ps := range r.PageStarts {
		if ps.Offset >= r.TruncatedAt {
			r.PageStarts = r.PageStarts[:i]
			break
		}
	}
}
