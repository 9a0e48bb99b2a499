package store

import "strings"

// rowsPerStatement bounds a multi-row INSERT: its parameters stay far
// below SQLite's and PostgreSQL's limits, and one statement replaces
// hundreds of round trips.
const rowsPerStatement = 500

// valueRows spells n rows of a multi-row INSERT's VALUES, each row as
// given: valueRows(2, "(?, ?)") is "(?, ?), (?, ?)".
func valueRows(n int, row string) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(row+", ", n-1) + row
}
