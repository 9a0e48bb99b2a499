package index

import "fmt"

// QueryError is a query the caller has to change (a bad regular
// expression or path glob); its message says how.
type QueryError struct{ msg string }

func (e *QueryError) Error() string { return e.msg }

func badQuery(format string, a ...any) error {
	return &QueryError{msg: fmt.Sprintf(format, a...)}
}
