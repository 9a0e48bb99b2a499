package embed

import (
	"strings"
	"unicode/utf8"
)

// Chunk sizes in estimated tokens: a chunk holds about ChunkTokens, and
// starts with the last block of the one before when that block is at most
// overlapTokens, so a sentence cut at a chunk's end is read whole once.
const (
	ChunkTokens   = 500
	overlapTokens = 120
)

// Piece is one chunk of a text: its bytes are text[Start:End], Line the
// 1-based line it starts on, Heading the last heading above it (the
// file's context the chunk is embedded with).
type Piece struct {
	Start, End int
	Line       int
	Heading    string
}

// Input is what a piece is embedded as: the file's name and the heading
// above it lead its text, so a chunk of a section is found by what the
// section is about.
func (p Piece) Input(name, text string) string {
	head := name
	if p.Heading != "" {
		head += " › " + p.Heading
	}
	return head + "\n\n" + text[p.Start:p.End]
}

// block is a paragraph, a heading or a page: a run of lines between blank
// lines, headings and form feeds.
type block struct {
	start, end, line int
	heading          string // set when the block is a Markdown heading
	tokens           int
}

// Chunk cuts text along its structure (Markdown headings, paragraphs, PDF
// pages) into pieces of about ChunkTokens tokens; a block longer than
// that is cut at line ends, and a line longer than that at a rune.
func Chunk(text string) []Piece {
	var out []Piece
	var cur []block
	curTokens := 0
	heading := ""
	flush := func() {
		if len(cur) == 0 {
			return
		}
		out = append(out, Piece{Start: cur[0].start, End: cur[len(cur)-1].end, Line: cur[0].line, Heading: heading})
		last := cur[len(cur)-1]
		cur, curTokens = cur[:0], 0
		if last.tokens <= overlapTokens && last.heading == "" {
			cur, curTokens = append(cur, last), last.tokens
		}
	}
	for _, b := range blocks(text) {
		if b.heading != "" {
			flush()
			cur, curTokens = cur[:0], 0
			heading = b.heading
		}
		if curTokens+b.tokens > ChunkTokens && curTokens > 0 {
			flush()
			if curTokens+b.tokens > ChunkTokens {
				cur, curTokens = cur[:0], 0
			}
		}
		cur = append(cur, b)
		curTokens += b.tokens
	}
	if len(cur) > 0 && (len(out) == 0 || cur[len(cur)-1].end > out[len(out)-1].End) {
		out = append(out, Piece{Start: cur[0].start, End: cur[len(cur)-1].end, Line: cur[0].line, Heading: heading})
	}
	return out
}

// blocks splits text into blocks of at most ChunkTokens tokens.
func blocks(text string) []block {
	var out []block
	start, startLine, tokens := -1, 0, 0
	end := func(at int) {
		if start >= 0 {
			out = append(out, block{start: start, end: at, line: startLine, tokens: tokens})
		}
		start, tokens = -1, 0
	}
	line := 1
	for pos := 0; pos < len(text); line++ {
		next := strings.IndexByte(text[pos:], '\n')
		lineEnd := len(text)
		if next >= 0 {
			lineEnd = pos + next
		}
		l := text[pos:lineEnd]
		trimmed := strings.TrimSpace(strings.Trim(l, "\f"))
		switch {
		case trimmed == "":
			end(pos)
		case isHeading(trimmed):
			end(pos)
			out = append(out, block{start: pos, end: lineEnd, line: line, heading: strings.TrimSpace(strings.TrimLeft(trimmed, "#")), tokens: Tokens(l)})
		default:
			if strings.HasPrefix(l, "\f") {
				end(pos) // a new PDF page
			}
			for _, seg := range cutLine(pos, lineEnd, text) {
				t := Tokens(text[seg[0]:seg[1]])
				if start >= 0 && tokens+t > ChunkTokens {
					end(seg[0])
				}
				if start < 0 {
					start, startLine = seg[0], line
				}
				tokens += t
			}
		}
		if next < 0 {
			pos = len(text)
		} else {
			pos = lineEnd + 1
		}
	}
	end(len(text))
	return out
}

func isHeading(l string) bool {
	n := len(l) - len(strings.TrimLeft(l, "#"))
	return n >= 1 && n <= 6 && len(l) > n && l[n] == ' '
}

// cutLine returns the [start, end) byte ranges of a line cut into pieces
// of at most ChunkTokens tokens, at rune boundaries.
func cutLine(start, end int, text string) [][2]int {
	var out [][2]int
	for start < end {
		at, t := start, 0
		for at < end && t < 4*ChunkTokens {
			r, n := utf8.DecodeRuneInString(text[at:end])
			at += n
			t += runeTokens(r)
		}
		out = append(out, [2]int{start, at})
		start = at
	}
	return out
}

// Tokens estimates how many tokens a model's tokenizer makes of s: a
// token is about four letters of a Latin script, and about one character
// of Chinese or Japanese.
func Tokens(s string) int {
	n := 0
	for _, r := range s {
		n += runeTokens(r)
	}
	return (n + 3) / 4
}

// runeTokens is r's weight in quarter tokens.
func runeTokens(r rune) int {
	if r < 0x2E80 {
		return 1
	}
	return 4
}
