// Package store owns the database: gorm models, repositories and the one
// place that knows the differences between SQLite and PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/knowspace/knowspace/migrations"
)

// Dialects the store speaks.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// Store is the database handle shared by the repositories.
type Store struct {
	db      *gorm.DB
	dialect string
	counter *StatementCounter
	// gate orders SQLite's writers (write_gate.go); nil inside a
	// transaction, which already holds the lock.
	gate *writeGate
	// pgConfig connects Listen's own connection; nil on SQLite. closed
	// ends every Listen when the store closes.
	pgConfig  *pgx.ConnConfig
	closed    chan struct{}
	closeOnce *sync.Once
}

// Open connects to PostgreSQL when dsn starts with postgres:// (or
// postgresql://) and to SQLite in dataDir otherwise, then applies migrations.
func Open(ctx context.Context, dsn, dataDir string) (*Store, error) {
	var (
		dialector gorm.Dialector
		dialect   string
		pgConfig  *pgx.ConnConfig
		err       error
	)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		dialect = DialectPostgres
		if dialector, pgConfig, err = openPostgres(dsn); err != nil {
			return nil, err
		}
	case dsn == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		file := filepath.Join(dataDir, "knowspace.db")
		dialector, dialect = fullSQLite{sqlite.Open(sqliteDSN(file)).(*sqlite.Dialector), file}, DialectSQLite
	default:
		return nil, fmt.Errorf("database dsn: only postgres:// URLs are supported (empty means SQLite in the data dir)")
	}
	db, err := gorm.Open(dialector, &gorm.Config{
		Logger:         logger.Discard,
		TranslateError: true,
		NowFunc:        func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dialect, err)
	}
	s := &Store{db: db, dialect: dialect, gate: &writeGate{}, pgConfig: pgConfig, closed: make(chan struct{}), closeOnce: &sync.Once{}}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	if dialect == DialectSQLite {
		// Immediate transactions plus busy_timeout serialize writers inside
		// SQLite itself; a few connections keep readers from queueing behind them.
		sqlDB.SetMaxOpenConns(4)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connect %s: %w", dialect, err)
	}
	if dialect == DialectSQLite {
		// SQLite creates its files with the process umask (often 0644); the
		// journal files take the database file's mode from then on.
		db := filepath.Join(dataDir, "knowspace.db")
		for _, f := range []string{db, db + "-wal", db + "-shm"} {
			if err := os.Chmod(f, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.Close()
				return nil, fmt.Errorf("restrict %s: %w", f, err)
			}
		}
	}
	if dialect == DialectSQLite {
		if err := checkFTS5(ctx, sqlDB); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := migrate(ctx, sqlDB, dialect); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.initSearchMeta(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("search index: %w", err)
	}
	return s, nil
}

// checkFTS5 refuses a binary whose SQLite lacks FTS5, which the content
// index needs: go-sqlite3 compiles it only under a build tag.
func checkFTS5(ctx context.Context, db *sql.DB) error {
	var on int
	if err := db.QueryRowContext(ctx, "SELECT sqlite_compileoption_used('ENABLE_FTS5')").Scan(&on); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if on == 0 {
		return errors.New("this binary's SQLite has no FTS5, which the search index needs: build with `go build -tags sqlite_fts5` (make build does)")
	}
	return nil
}

// busy_timeout comes first so the other pragmas never fail on a locked file.
func sqliteDSN(path string) string {
	return "file:" + path + "?_busy_timeout=10000&_journal_mode=WAL&_foreign_keys=on&_synchronous=NORMAL&_txlock=immediate"
}

func migrate(ctx context.Context, db *sql.DB, dialect string) error {
	p, err := migrator(db, dialect)
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		slog.Debug("migration applied", "dialect", dialect, "version", r.Source.Version, "file", filepath.Base(r.Source.Path))
	}
	return nil
}

func migrator(db *sql.DB, dialect string) (*goose.Provider, error) {
	sub, err := fs.Sub(migrations.FS, dialect)
	if err != nil {
		return nil, err
	}
	var opts []goose.ProviderOption
	goDialect := goose.DialectSQLite3
	if dialect == DialectPostgres {
		goDialect = goose.DialectPostgres
		// Replicas starting together must not run the same migration twice.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(goDialect, db, sub, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// Dialect reports which database is behind the store.
func (s *Store) Dialect() string { return s.dialect }

// Close releases the connection pool.
func (s *Store) Close() error {
	if s.closeOnce != nil {
		s.closeOnce.Do(func() { close(s.closed) })
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks the database is reachable (health checks).
func (s *Store) Ping(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// InTx runs fn in one transaction; fn must use only the Store it is given
// and may run more than once: a transaction the database aborted as a
// deadlock or for a busy lock is tried again.
func (s *Store) InTx(ctx context.Context, fn func(tx *Store) error) error {
	if s.gate != nil && s.dialect == DialectSQLite {
		if isBackground(ctx) {
			s.gate.yield(ctx)
		} else {
			defer s.gate.enter()()
		}
	}
	var err error
	for attempt := range 3 {
		err = translate(s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			return fn(&Store{db: tx, dialect: s.dialect, counter: s.counter})
		}))
		if !errors.Is(err, ErrBusy) || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 20 * time.Millisecond)
	}
	return err
}
