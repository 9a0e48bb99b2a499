package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// Connections to PostgreSQL: at most pgOpenConns at once, pgIdleConns kept
// open between statements.
const (
	pgOpenConns = 20
	pgIdleConns = 4
)

// retryPool is the PostgreSQL connection pool that gorm runs statements
// on outside transactions. A pooled connection can die while idle (the
// server restarted, a proxy or firewall cut it) and database/sql learns
// it only when a statement fails on it. The idle connections beside it
// most likely died the same way, so they are closed; and a statement that
// cannot have changed anything (a SELECT, a BEGIN) is run once more, on a
// fresh connection. A write that failed so is not repeated: it may have
// been committed before the connection broke.
type retryPool struct {
	*sql.DB
}

func openPostgres(dsn string) (gorm.Dialector, *pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("database dsn: %w", err)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(pgOpenConns)
	db.SetMaxIdleConns(pgIdleConns)
	return postgres.New(postgres.Config{Conn: retryPool{db}}), cfg, nil
}

// GetDBConn gives gorm's DB() the pool underneath.
func (p retryPool) GetDBConn() (*sql.DB, error) { return p.DB, nil }

// again tells whether a statement that failed with err is worth running
// once more, after dropping the idle connections when err says the
// connection under it died.
func (p retryPool) again(ctx context.Context, err error, idempotent bool) bool {
	if err == nil || !brokenConn(err) {
		return false
	}
	p.SetMaxIdleConns(0)
	p.SetMaxIdleConns(pgIdleConns)
	return idempotent && ctx.Err() == nil
}

func (p retryPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := p.DB.QueryContext(ctx, query, args...)
	if p.again(ctx, err, readOnly(query)) {
		return p.DB.QueryContext(ctx, query, args...)
	}
	return rows, err
}

func (p retryPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	row := p.DB.QueryRowContext(ctx, query, args...)
	if p.again(ctx, row.Err(), readOnly(query)) {
		return p.DB.QueryRowContext(ctx, query, args...)
	}
	return row
}

func (p retryPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := p.DB.ExecContext(ctx, query, args...)
	p.again(ctx, err, false)
	return res, err
}

func (p retryPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	tx, err := p.DB.BeginTx(ctx, opts)
	if p.again(ctx, err, true) {
		return p.DB.BeginTx(ctx, opts)
	}
	return tx, err
}

// readOnly tells a plain query from a write, which on PostgreSQL may be a
// query too (INSERT … RETURNING).
func readOnly(query string) bool {
	q := strings.TrimSpace(query)
	return len(q) >= len("SELECT") && strings.EqualFold(q[:len("SELECT")], "SELECT")
}
