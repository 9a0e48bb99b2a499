package extract

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

const htmlExtractor = "knowspace-html/1"

// extractHTML reads a web page as text: scripts, styles and the head are
// dropped; headings, lists, links and tables are kept as Markdown-like
// text. It streams tokens, so a page's size, not its nesting, bounds the
// work.
func extractHTML(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	text, enc, err := decodeHTML(raw)
	if err != nil {
		return Result{}, err
	}
	out := newSink(lim)
	if err := htmlText(ctx, text, out, true); stopped(err) {
		return Result{}, err
	}
	res := out.result("html", htmlExtractor)
	res.Encoding = enc
	return res, nil
}

// decodeHTML honours a BOM or a <meta charset> and otherwise detects the
// encoding as for plain text.
func decodeHTML(raw []byte) (string, string, error) {
	if utf8.Valid(raw) {
		return strings.TrimPrefix(string(raw), "\ufeff"), EncUTF8, nil
	}
	if e, name, certain := charset.DetermineEncoding(raw[:min(len(raw), 1024)], "text/html"); certain {
		if out, err := e.NewDecoder().Bytes(raw); err == nil {
			return string(out), name, nil
		}
	}
	text, enc, ok := DecodeText(raw)
	if !ok {
		return "", "", Fail(CodeParseFailed, "the page is binary, not HTML text")
	}
	return text, enc, nil
}

// htmlWriter renders one page's tokens.
type htmlWriter struct {
	out          *sink
	skip         string // tag whose content is dropped (script, style, ...)
	pre          int    // open <pre> elements: whitespace is kept
	pendingSpace bool
	lists        []int // per open list: 0 for ul, else the next number of an ol
	links        []string
	keepTitle    bool
}

// htmlText renders a page into out; keepTitle keeps the head's <title> as
// its first line (an e-book's chapters have file names there).
func htmlText(ctx context.Context, text string, out *sink, keepTitle bool) error {
	z := html.NewTokenizer(strings.NewReader(text))
	w := &htmlWriter{out: out, keepTitle: keepTitle}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tt := z.Next()
		if tt == html.ErrorToken {
			return nil // io.EOF: the tokenizer recovers from everything else
		}
		if err := w.token(tt, z.Token()); err != nil {
			return err
		}
	}
}

var htmlDropped = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "svg": true, "head": true, "iframe": true, "object": true}

var htmlBlocks = map[string]bool{
	"p": true, "div": true, "section": true, "article": true, "header": true, "footer": true, "main": true,
	"nav": true, "aside": true, "blockquote": true, "pre": true, "table": true, "ul": true, "ol": true,
	"dl": true, "dt": true, "dd": true, "figure": true, "figcaption": true, "hr": true, "form": true,
	"address": true, "body": true, "title": true,
}

func (w *htmlWriter) token(tt html.TokenType, t html.Token) error {
	if w.skip != "" {
		if tt == html.EndTagToken && t.Data == w.skip {
			w.skip = ""
		}
		// The title is the one part of the head worth keeping.
		if w.skip == "head" && w.keepTitle && tt == html.StartTagToken && t.Data == "title" {
			w.skip = ""
			return w.block()
		}
		return nil
	}
	switch tt {
	case html.TextToken:
		return w.text(t.Data)
	case html.StartTagToken, html.SelfClosingTagToken:
		if htmlDropped[t.Data] {
			if tt == html.StartTagToken {
				w.skip = t.Data
			}
			return nil
		}
		return w.start(t)
	case html.EndTagToken:
		return w.end(t)
	}
	return nil
}

func (w *htmlWriter) start(t html.Token) error {
	switch t.Data {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		if err := w.block(); err != nil {
			return err
		}
		return w.out.WriteString(strings.Repeat("#", int(t.Data[1]-'0')) + " ")
	case "br":
		w.pendingSpace = false
		return w.out.WriteString("\n")
	case "pre":
		w.pre++
		return w.block()
	case "ul", "ol":
		n := 0
		if t.Data == "ol" {
			n = 1
		}
		if len(w.lists) < 32 {
			w.lists = append(w.lists, n)
		}
		return w.out.newline()
	case "li":
		if err := w.out.newline(); err != nil {
			return err
		}
		mark := "- "
		if k := len(w.lists); k > 0 {
			if w.lists[k-1] > 0 {
				mark = strconv.Itoa(w.lists[k-1]) + ". "
				w.lists[k-1]++
			}
			mark = strings.Repeat("  ", k-1) + mark
		}
		w.pendingSpace = false
		return w.out.WriteString(mark)
	case "tr":
		if err := w.out.newline(); err != nil {
			return err
		}
		w.pendingSpace = false
		return w.out.WriteString("| ")
	case "a":
		href := attrOf(t, "href")
		if href == "" || strings.HasPrefix(href, "#") || strings.HasPrefix(strings.ToLower(href), "javascript:") {
			href = ""
		}
		w.links = append(w.links, href)
		if href != "" {
			return w.inline("[")
		}
	case "img":
		if alt := strings.TrimSpace(attrOf(t, "alt")); alt != "" {
			return w.text(alt)
		}
	default:
		if htmlBlocks[t.Data] {
			return w.block()
		}
	}
	return nil
}

func (w *htmlWriter) end(t html.Token) error {
	switch t.Data {
	case "h1", "h2", "h3", "h4", "h5", "h6", "li", "title":
		w.pendingSpace = false
		return w.out.newline()
	case "pre":
		w.pre = max(0, w.pre-1)
		return w.block()
	case "ul", "ol":
		if len(w.lists) > 0 {
			w.lists = w.lists[:len(w.lists)-1]
		}
		return w.out.newline()
	case "td", "th":
		w.pendingSpace = false
		return w.out.WriteString(" | ")
	case "tr":
		w.pendingSpace = false
		return w.out.newline()
	case "a":
		if k := len(w.links); k > 0 {
			href := w.links[k-1]
			w.links = w.links[:k-1]
			if href != "" {
				w.pendingSpace = false
				return w.out.WriteString("](" + href + ")")
			}
		}
	default:
		if htmlBlocks[t.Data] {
			return w.block()
		}
	}
	return nil
}

// block starts a new paragraph.
func (w *htmlWriter) block() error {
	w.pendingSpace = false
	return w.out.blankLine()
}

func (w *htmlWriter) inline(s string) error {
	if w.pendingSpace {
		w.pendingSpace = false
		if err := w.out.WriteString(" "); err != nil {
			return err
		}
	}
	return w.out.WriteString(s)
}

// text writes character data, collapsing white space outside <pre>.
func (w *htmlWriter) text(s string) error {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	if w.pre > 0 {
		return w.out.WriteString(s)
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		w.pendingSpace = w.pendingSpace || s != ""
		return nil
	}
	lead := s[0] == ' ' || s[0] == '\n' || s[0] == '\t' || s[0] == '\r'
	if lead && !w.atLineStart() {
		w.pendingSpace = true
	}
	if err := w.inline(strings.Join(fields, " ")); err != nil {
		return err
	}
	last := s[len(s)-1]
	w.pendingSpace = last == ' ' || last == '\n' || last == '\t' || last == '\r'
	return nil
}

func (w *htmlWriter) atLineStart() bool {
	str := w.out.b.String()
	return str == "" || strings.HasSuffix(str, "\n") || strings.HasSuffix(str, "| ") || strings.HasSuffix(str, "[")
}

func attrOf(t html.Token, key string) string {
	for _, a := range t.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
