package tools

import (
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
)

// FuzzDecodeArgs feeds arbitrary bytes to every tool's argument decoder:
// it never panics, every refusal is a 400 with a message, and every
// accepted call holds values within the schema's bounds.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`{"uri":"kb://me/","offset":3,"limit":10}`, `{"uri":"kb://me/","query":"会议","offset":"s1.e30"}`,
		`{}`, ``, `null`, `[]`, `{"uri":1e400}`, `{"limit":-0.0,"uri":"x"}`, `{"uri":"a","uri":"b"}`,
		`{"uri":"\ud800"}`, `{"uri":"kb://me/"} x`, `{"offset":9223372036854775808,"uri":"u"}`,
	} {
		f.Add(s)
	}
	defs := toolDefs()
	f.Fuzz(func(t *testing.T, raw string) {
		for name, d := range defs {
			a, err := decodeArgs(name, d.args, []byte(raw))
			if err != nil {
				e, ok := apierr.As(err)
				if !ok || e.Status != 400 || e.Message == "" || !utf8.ValidString(e.Message) {
					t.Fatalf("%s: bad error %v", name, err)
				}
				continue
			}
			for _, s := range d.args {
				switch {
				case s.Required && !a.has(s.Name):
					t.Fatalf("%s: accepted without %s", name, s.Name)
				case s.Kind == argInteger && a.has(s.Name):
					if v := a.integer(s.Name, 0); v < s.Min || v > s.Max {
						t.Fatalf("%s: %s=%d out of range", name, s.Name, v)
					}
				case s.Kind == argString && a.has(s.Name):
					if n := utf8.RuneCountInString(a.str(s.Name)); n < s.MinChars || (s.MaxChars > 0 && n > s.MaxChars) {
						t.Fatalf("%s: %s has %d chars", name, s.Name, n)
					}
				}
			}
			for k := range a.strs {
				if _, ok := findSpec(d.args, k); !ok {
					t.Fatalf("%s: accepted unknown %s", name, k)
				}
			}
		}
	})
}
