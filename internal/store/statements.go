package store

import (
	"strings"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
)

// StatementCounter counts the SQL statements a store sends, so tests and
// benchmarks can bound them (a job's cost must not grow with its folder).
// Transaction control (BEGIN, COMMIT) is not counted.
type StatementCounter struct {
	n, rows atomic.Int64
	mu      sync.Mutex
	// bySQL counts statements by their text with placeholders, so a test
	// can count one kind; it grows with the kinds, not the calls.
	bySQL map[string]int64
}

// Matching is the number of statements sent whose text contains substr.
func (c *StatementCounter) Matching(substr string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for q, k := range c.bySQL {
		if strings.Contains(q, substr) {
			n += k
		}
	}
	return n
}

// Count is the number of statements sent since the counter was made.
func (c *StatementCounter) Count() int64 { return c.n.Load() }

// Rows is the number of rows Find, Take and First read since the counter
// was made (raw scans are not counted): what a query loads, not only how
// often it runs.
func (c *StatementCounter) Rows() int64 { return c.rows.Load() }

// CountStatements returns the store's statement counter, registering it on
// first use. Register it before the store is shared between goroutines:
// gorm's callback lists are not safe to change while queries run.
func (s *Store) CountStatements() (*StatementCounter, error) {
	if s.counter != nil {
		return s.counter, nil
	}
	c := &StatementCounter{bySQL: map[string]int64{}}
	count := func(db *gorm.DB) {
		if db.Statement.SQL.Len() > 0 {
			c.n.Add(1)
			c.mu.Lock()
			c.bySQL[db.Statement.SQL.String()]++
			c.mu.Unlock()
		}
	}
	cb := s.db.Callback()
	for _, err := range []error{
		cb.Create().After("gorm:create").Register("knowspace:count_create", count),
		cb.Query().After("gorm:query").Register("knowspace:count_query", func(db *gorm.DB) {
			count(db)
			c.rows.Add(db.RowsAffected)
		}),
		cb.Update().After("gorm:update").Register("knowspace:count_update", count),
		cb.Delete().After("gorm:delete").Register("knowspace:count_delete", count),
		cb.Row().After("gorm:row").Register("knowspace:count_row", count),
		cb.Raw().After("gorm:raw").Register("knowspace:count_raw", count),
	} {
		if err != nil {
			return nil, err
		}
	}
	s.counter = c
	return c, nil
}
