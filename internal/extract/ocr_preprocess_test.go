package extract

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func decodeGray(t *testing.T, name string) *image.Gray {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ocrOthers, name))
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return toGray(img)
}

// A full page at 300 dpi holds more dark pixels than skewAngle counts one
// by one, so it samples every other pixel; the tilt must still be found.
func TestSkewAngleOfFullPages(t *testing.T) {
	// tar(1) as pdftoppm drew it, scaled to 300 dpi as preprocess does,
	// turned by known angles.
	page := upscale(decodeGray(t, "en-150.png"), 2)
	for _, deg := range []float64{2, -2, 1, 0} {
		if got := skewAngle(rotate(page, deg)); math.Abs(got+deg) > 0.25 {
			t.Errorf("page turned %v°: skew %v°, want %v°", deg, got, -deg)
		}
	}
	// The degraded pages of make.sh, turned 2° by ImageMagick.
	for _, name := range []string{"en-300-noisy.jpg", "zh-300-noisy.jpg", "tw-300-noisy.jpg"} {
		if got := math.Abs(skewAngle(decodeGray(t, name))); got < 1.75 || got > 2.25 {
			t.Errorf("%s: skew %v°, want 2°", name, got)
		}
	}
}
