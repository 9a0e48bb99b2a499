package blob

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFS flushes the whole file system holding path (syncfs(2)): the
// staging directory's files, whatever their number, in one call.
func syncFS(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	return true, unix.Syncfs(int(f.Fd()))
}
