package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"github.com/knowspace/knowspace/internal/apierr"
)

var (
	// ErrNotFound means no row matched.
	ErrNotFound = errors.New("not found")
	// ErrConflict means a unique constraint refused the write.
	ErrConflict = errors.New("already exists")
	// ErrGone means a row the write refers to (a parent folder, a file)
	// was deleted meanwhile: a foreign key refused it.
	ErrGone = errors.New("deleted meanwhile")
	// ErrBusy means the database gave up on a lock (a deadlock, a
	// serialization failure, SQLite's busy timeout); trying again may work.
	ErrBusy = errors.New("database busy")
	// ErrUnavailable means the database cannot be reached: it refuses
	// connections, is shutting down or out of connections, or the
	// connection broke. Every door answers it 503 with Retry-After.
	ErrUnavailable = fmt.Errorf("database %w", apierr.ErrUnavailable)
	// ErrNoSpace means the database has no room for the write (SQLite's
	// disk is full, PostgreSQL's disk_full). Every door answers it 507.
	ErrNoSpace = fmt.Errorf("database storage: %w", apierr.ErrNoSpace)
	// ErrClosed means the store was closed: the server is stopping, and
	// background work ends quietly.
	ErrClosed = errors.New("store closed")
)

// translate maps driver errors to the store's sentinel errors.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return fmt.Errorf("%w: %v", ErrConflict, err)
	case errors.Is(err, gorm.ErrForeignKeyViolated):
		return fmt.Errorf("%w: %v", ErrGone, err)
	case isBusy(err):
		return fmt.Errorf("%w: %v", ErrBusy, err)
	case isUnavailable(err):
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	case isFull(err):
		// %w keeps the database file (fullSQLite) for the log.
		return fmt.Errorf("%w: %w", ErrNoSpace, err)
	case strings.Contains(err.Error(), "sql: database is closed"):
		// database/sql does not export this error.
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return err
}

func isBusy(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// deadlock_detected, serialization_failure, lock_not_available
		return pe.Code == "40P01" || pe.Code == "40001" || pe.Code == "55P03"
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

func isUnavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P01", "57P02", "57P03", "53300":
			// admin_shutdown, crash_shutdown, cannot_connect_now,
			// too_many_connections
			return true
		}
		return strings.HasPrefix(pe.Code, "08") // connection_exception
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || brokenConn(err)
}

// brokenConn tells whether err says the connection under a statement
// died: the server closed it or the network dropped it.
func brokenConn(err error) bool {
	for _, target := range []error{driver.ErrBadConn, io.EOF, io.ErrUnexpectedEOF, net.ErrClosed,
		syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ECONNABORTED, syscall.EPIPE} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

func isFull(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "53100" // disk_full
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC)
}

// fullSQLite is SQLite's dialect, with a full disk reported against the
// database file, so the log can say which disk is full and how much of
// it is free.
type fullSQLite struct {
	*sqlite.Dialector
	path string
}

func (d fullSQLite) Translate(err error) error {
	err = d.Dialector.Translate(err)
	var pe *fs.PathError
	if isFull(err) && !errors.As(err, &pe) {
		return &fs.PathError{Op: "write", Path: d.path, Err: err}
	}
	return err
}
