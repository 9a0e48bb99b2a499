package rank

import "strings"

// MaxBodyBytes bounds the text of one file the word index holds: a
// longer body is ranked by its beginning (its name, title and headings
// still count). A file's entry is written in one transaction, and SQLite's
// write lock is held while FTS5 cuts it into words: this is the size of
// one chunk of the trigram index, so that indexing a large upload never
// keeps other users' writes waiting longer than a chunk does (4 MB kept
// them waiting seconds, TestBigUploadDoesNotStallOthers).
const MaxBodyBytes = 256 << 10

// Doc is what a file contributes to the word index, one weighted column
// each.
type Doc struct {
	Name     string
	Title    string
	Headings string
	Body     string
}

// Fields cuts a file into its columns: the name with its separators as
// spaces, the title (the first Markdown heading, else the first non-empty
// line), the other Markdown headings, and the body (cut at MaxBodyBytes
// on a line end).
func Fields(name, text string) Doc {
	if len(text) > MaxBodyBytes {
		cut := strings.LastIndexByte(text[:MaxBodyBytes], '\n')
		if cut <= 0 {
			cut = MaxBodyBytes
			for cut > 0 && text[cut]&0xC0 == 0x80 {
				cut--
			}
		}
		text = text[:cut]
	}
	d := Doc{Name: nameWords(name), Body: text}
	var heads []string
	firstLine := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if firstLine == "" {
			firstLine = line
		}
		if h, ok := heading(line); ok {
			if d.Title == "" && strings.HasPrefix(line, "# ") {
				d.Title = h
				continue
			}
			heads = append(heads, h)
		}
	}
	if d.Title == "" {
		d.Title = clipRunes(firstLine, 200)
	}
	d.Headings = strings.Join(heads, "\n")
	return d
}

// heading returns the text of a Markdown ATX heading line.
func heading(line string) (string, bool) {
	n := 0
	for n < len(line) && n < 6 && line[n] == '#' {
		n++
	}
	if n == 0 || n == len(line) || line[n] != ' ' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(line[n:], "#")), true
}

// nameWords spells a file name as words: "net_http-client.md" →
// "net http client md".
func nameWords(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', '/':
			return ' '
		}
		return r
	}, name)
}

func clipRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
