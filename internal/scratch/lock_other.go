//go:build !unix

package scratch

import (
	"errors"
	"os"
)

// lock cannot tell a dead owner here: every owned directory counts as live
// and only ownerless ones past legacyAge are swept.
func lock(*os.File) error { return errors.ErrUnsupported }
