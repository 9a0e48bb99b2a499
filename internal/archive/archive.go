// Package archive reads zip and tar archives as a stream of safe entries:
// every name is decoded to UTF-8 (legacy code pages included), checked for
// absolute paths and "..", and the entry count, the total size and each
// entry's compression ratio are bounded while reading, so a hostile archive
// is refused before it costs more than its limits.
package archive

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Format is an archive's container.
type Format int

// The formats an import reads.
const (
	Zip Format = iota + 1
	Tar
	TarGz
)

// FormatOf tells the format from a file name and returns the name without
// its archive extension; ok is false for any other file.
func FormatOf(name string) (f Format, base string, ok bool) {
	lower := strings.ToLower(name)
	for _, s := range []struct {
		ext string
		f   Format
	}{{".tar.gz", TarGz}, {".tgz", TarGz}, {".tar", Tar}, {".zip", Zip}} {
		if strings.HasSuffix(lower, s.ext) && len(name) > len(s.ext) {
			return s.f, name[:len(name)-len(s.ext)], true
		}
	}
	return 0, "", false
}

// Limits bound what one archive may unpack to.
type Limits struct {
	MaxEntries    int   // every entry counts: files, folders and skipped ones
	MaxBytes      int64 // uncompressed bytes of all files together
	MaxEntryBytes int64 // uncompressed bytes of one file (0: MaxBytes)
	// MaxRatio is the largest uncompressed/compressed ratio of one entry
	// past ratioFloor bytes; beyond it the archive is taken for a bomb.
	MaxRatio int64
}

// DefaultMaxRatio allows very compressible text (logs compress 20–50×)
// and refuses the thousandfold ratios of zero-filled bombs.
const DefaultMaxRatio = 200

// ratioFloor spares small entries the ratio check: a tiny file of
// repeated bytes is harmless whatever its ratio.
const ratioFloor = 1 << 20

// Error codes of a refused archive.
const (
	CodeInvalid       = "archive_invalid"
	CodeTooMany       = "archive_too_many_entries"
	CodeTooLarge      = "archive_too_large"
	CodeEntryTooLarge = "archive_entry_too_large"
	CodeBomb          = "archive_bomb"
	CodeUnsafePath    = "archive_unsafe_path"
	CodeLink          = "archive_link"
)

// Error is why an archive was refused; Message names the entry.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Entry is one file or folder of an archive. Path holds its segments,
// decoded and free of "." and empty ones; Raw is the name as stored, for
// messages.
type Entry struct {
	Path []string
	Raw  string
	Dir  bool
	Size int64 // declared uncompressed size; the body is held to it
}

// Name is the entry's path with slashes.
func (e Entry) Name() string { return strings.Join(e.Path, "/") }

// Skip is an entry left out, with the reason.
type Skip struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Visit receives each entry; body reads a file's bytes (nil for a folder)
// and is valid only during the call.
type Visit func(e Entry, body io.Reader) error

// Source is an archive's bytes: read in order (tar) or at offsets (zip).
type Source interface {
	io.Reader
	io.ReaderAt
}

// Walk reads the archive f of size bytes and calls visit for each entry in
// archive order. progress, when set, gets the fraction read so far. It
// stops at the first refusal (*Error), ctx's end or visit's error.
func Walk(ctx context.Context, f Source, size int64, format Format, lim Limits, progress func(float64), visit Visit) ([]Skip, error) {
	if lim.MaxEntryBytes <= 0 || lim.MaxEntryBytes > lim.MaxBytes {
		lim.MaxEntryBytes = lim.MaxBytes
	}
	if lim.MaxRatio <= 0 {
		lim.MaxRatio = DefaultMaxRatio
	}
	if progress == nil {
		progress = func(float64) {}
	}
	w := &walker{ctx: ctx, lim: lim, progress: progress, visit: visit}
	var err error
	switch format {
	case Zip:
		err = w.zip(f, size)
	case Tar, TarGz:
		err = w.tar(f, size, format == TarGz)
	default:
		err = refuse(CodeInvalid, "unknown archive format")
	}
	return w.skips, err
}

// walker holds the running totals shared by both formats.
type walker struct {
	ctx      context.Context
	lim      Limits
	progress func(float64)
	visit    Visit
	entries  int
	total    int64
	skips    []Skip
}

func (w *walker) count(raw string) error {
	w.entries++
	if w.entries > w.lim.MaxEntries {
		return refuse(CodeTooMany, "the archive has more than %d entries (import.max_entries)", w.lim.MaxEntries)
	}
	return w.ctx.Err()
}

func (w *walker) skip(name, reason string) {
	w.skips = append(w.skips, Skip{Name: name, Reason: reason})
}

// declare adds an entry's declared size to the totals.
func (w *walker) declare(name string, size int64) error {
	if size < 0 {
		return refuse(CodeInvalid, "%s declares a negative size", name)
	}
	if size > w.lim.MaxEntryBytes {
		return refuse(CodeEntryTooLarge, "%s unpacks to %d bytes, more than the limit of %d for one file", name, size, w.lim.MaxEntryBytes)
	}
	w.total += size
	if w.total > w.lim.MaxBytes {
		return refuse(CodeTooLarge, "the archive unpacks to more than %d bytes (import.max_bytes)", w.lim.MaxBytes)
	}
	return nil
}
