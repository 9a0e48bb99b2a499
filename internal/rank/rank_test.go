package rank

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitBigrams(t *testing.T) {
	words, cjk := Split("Go 的全文检索 works, 日本語も")
	if cjk != "的全 全文 文检 检索 日本 本語 語も" {
		t.Errorf("cjk %q", cjk)
	}
	if words != "Go   works, " {
		t.Errorf("words %q", words)
	}
}

func TestParseQuery(t *testing.T) {
	q := ParseQuery("How do I read a big file, line by line? 读取文件")
	if !slices.Equal(q.Words, []string{"read", "big", "file", "line"}) || !slices.Equal(q.Bigrams, []string{"读取", "取文", "文件"}) {
		t.Errorf("%+v", q)
	}
	if q := ParseQuery("how do I"); !slices.Equal(q.Words, []string{"how", "do", "i"}) {
		t.Errorf("only stop words: %+v", q)
	}
	if got := ParseQuery(`say "hi"`).FTS5(); got != `"say" OR "hi"` {
		t.Errorf("fts5 %s", got)
	}
}

func TestStemAgrees(t *testing.T) {
	for _, pair := range [][2]string{{"encoding", "encode"}, {"encodes", "encoded"}, {"files", "file"}, {"queries", "query"}, {"class", "class"}} {
		if Stem(pair[0]) != Stem(pair[1]) {
			t.Errorf("%s → %s, %s → %s", pair[0], Stem(pair[0]), pair[1], Stem(pair[1]))
		}
	}
}

// A stem never shrinks a word to another short word: "notes" marked every
// "not" of a file, and "used" every "us".
func TestStemKeepsShortWordsApart(t *testing.T) {
	for _, pair := range [][2]string{{"notes", "not"}, {"noted", "not"}, {"used", "us"}, {"nodes", "nod"}} {
		if Stem(pair[0]) == Stem(pair[1]) {
			t.Errorf("%s and %s both stem to %s", pair[0], pair[1], Stem(pair[0]))
		}
	}
}

func TestFields(t *testing.T) {
	d := Fields("net_http.md", "# net/http\n\npackage http\n\n## func Get(url string)\ntext\n")
	if d.Name != "net http md" || d.Title != "net/http" || d.Headings != "func Get(url string)" {
		t.Errorf("%+v", d)
	}
	if d := Fields("a.txt", "first line\nsecond"); d.Title != "first line" {
		t.Errorf("title %q", d.Title)
	}
}

func TestPassagesMarkMatches(t *testing.T) {
	text := "intro\nnothing here\nDecode the files with a decoder\n## Decoding files\n"
	ps := Passages(text, ParseQuery("decoding file"), 2)
	if len(ps) != 2 || ps[0].Line != 4 || ps[0].Snippet != "## «Decoding» «files»" || ps[1].Line != 3 || ps[1].Offset != 19 {
		t.Fatalf("%+v", ps)
	}
	if ps[1].Snippet != "«Decode» the «files» with a decoder" {
		t.Errorf("snippet %q", ps[1].Snippet)
	}
}

func TestProximity(t *testing.T) {
	q := ParseQuery("wait for goroutines to finish")
	near := "intro\nA WaitGroup waits for a collection of goroutines to finish.\n"
	far := "wait here\n\n\n\nmany goroutines\n\n\n\nthey finish\n"
	if p := Proximity(near, q); p != 1 {
		t.Errorf("near: %v", p)
	}
	if p := Proximity(far, q); p != 1.0/3 {
		t.Errorf("far: %v", p)
	}
	if p := Proximity("nothing", q); p != 0 {
		t.Errorf("none: %v", p)
	}
}

// TestWithin: a chunk's passage is its line with the most of the query's
// words, marked; without any, its first line of text, a heading only when
// the chunk holds nothing else.
func TestWithin(t *testing.T) {
	text := "# Island notes\n\nBy daytime a quokka will sleep in shady burrows.\n\n# Festival\n"
	chunk := strings.Index(text, "\n\n# Festival")
	a := Analyze(text, ParseQuery("shady burrows"))
	if p := a.Within(0, chunk, 1); p.Line != 3 || p.Snippet != "By daytime a quokka will sleep in «shady» «burrows»." {
		t.Fatalf("with words: %+v", p)
	}
	a = Analyze(text, ParseQuery("quokas slep"))
	if p := a.Within(0, chunk, 1); p.Line != 3 || p.Offset != 16 || p.Snippet != "By daytime a quokka will sleep in shady burrows." {
		t.Fatalf("without words: %+v", p)
	}
	if p := a.Within(chunk+2, len(text), 5); p.Line != 5 || p.Snippet != "# Festival" {
		t.Fatalf("a heading alone: %+v", p)
	}
}
