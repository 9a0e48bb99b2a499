package httpapi

import (
	"os"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
)

// TestMain makes the test binary the extraction child when an Isolation
// starts it (the page images of TestPageImage are drawn there).
func TestMain(m *testing.M) {
	if extract.IsChild() {
		os.Exit(extract.ChildMain())
	}
	os.Exit(m.Run())
}
