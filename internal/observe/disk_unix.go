//go:build unix

package observe

import "golang.org/x/sys/unix"

func freeBytes(path string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, err
	}
	// Bavail, not Bfree: the blocks reserved for root are not ours to use.
	return int64(st.Bavail) * int64(st.Bsize), nil
}
