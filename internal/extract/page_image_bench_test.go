package extract

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkPageImage draws page 1 of a two-page scan the way the preview
// asks for it: in the extraction child, with poppler. The baseline is
// pdftoppm run directly on the same file, the least a page can cost.
func BenchmarkPageImage(b *testing.B) {
	bin, err := exec.LookPath("pdftoppm")
	if err != nil {
		b.Skip("pdftoppm is not installed (apt-get install -y poppler-utils)")
	}
	raw := scanPair(b)
	path := filepath.Join(b.TempDir(), "scan.pdf")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("pdftoppm-direct", func(b *testing.B) {
		for range b.N {
			if out, err := pdftoppm(context.Background(), bin, path, 1, PageImageDPI, "-cropbox", "-png"); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("child", func(b *testing.B) {
		iso := ocrIsolation() // the child finds pdftoppm as the server's does
		for range b.N {
			if pi, err := iso.RenderPage(context.Background(), "scan.pdf", bytes.NewReader(raw), 1); err != nil || pi.Renderer != "pdftoppm" {
				b.Fatal(err, pi.Renderer)
			}
		}
	})
}
