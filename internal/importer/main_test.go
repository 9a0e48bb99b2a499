package importer

import (
	"log/slog"
	"os"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
)

// TestMain doubles as the extraction child BenchmarkLibraryImport's
// workers parse documents in, as the server's do.
func TestMain(m *testing.M) {
	if extract.IsChild() {
		os.Exit(extract.ChildMain())
	}
	if os.Getenv("KB_BENCH_LOG") == "" {
		slog.SetDefault(slog.New(slog.DiscardHandler))
	}
	os.Exit(m.Run())
}
