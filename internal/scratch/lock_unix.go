//go:build unix

package scratch

import (
	"os"
	"syscall"
)

// lock takes f's exclusive lock without waiting; it is the process's
// until f is closed or the process ends.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }
