package blob_test

import (
	"path/filepath"
	"testing"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/blob/blobtest"
)

func TestDiskSuite(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) blob.Backend {
		dir := t.TempDir()
		return blob.NewDisk(filepath.Join(dir, "blobs"), dir)
	})
}
