package index

import (
	"fmt"
	"unicode/utf8"
)

// QueryError is a query the caller has to change (a bad regular
// expression or path glob); its message says how.
type QueryError struct{ msg string }

func (e *QueryError) Error() string { return e.msg }

func badQuery(format string, a ...any) error {
	return &QueryError{msg: fmt.Sprintf(format, a...)}
}

// clip shortens s to at most n code points for a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
