package observe

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/knowspace/knowspace/internal/apierr"
)

// FreeBytes reports the bytes the server may still write on the file
// system holding path, or of the nearest folder above it that exists (a
// file that failed to be written is often gone); ok is false when the
// system cannot tell.
func FreeBytes(path string) (free int64, ok bool) {
	for {
		if free, err := freeBytes(path); err == nil {
			return free, true
		}
		up := filepath.Dir(path)
		if up == path {
			return 0, false
		}
		path = up
	}
}

// NoSpaceAttrs are the log attributes of a write that found no room:
// the path it failed on and the free bytes there, when err names a path.
func NoSpaceAttrs(err error) []any {
	var pe *fs.PathError
	if !apierr.IsNoSpace(err) || !errors.As(err, &pe) {
		return nil
	}
	attrs := []any{"path", pe.Path}
	if free, ok := FreeBytes(pe.Path); ok {
		attrs = append(attrs, "free_bytes", free)
	}
	return attrs
}
