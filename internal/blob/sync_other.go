//go:build !linux

package blob

// syncFS is not available: Sync flushes each file.
func syncFS(string) (bool, error) { return false, nil }
