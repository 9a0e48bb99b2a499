package audit

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// printable is s with each NUL and each byte that is not UTF-8 written as
// %XX: PostgreSQL refuses such text, and an attempt spelt with them must
// still be recorded, readably, as what was asked.
func printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0 || r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
