//go:build !unix

package observe

import "errors"

func freeBytes(string) (int64, error) { return 0, errors.New("free space is not known on this system") }
