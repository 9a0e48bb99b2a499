package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOCRConfig(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || strings.Join(c.OCR.Languages, ",") != "eng,chi_sim" || c.OCR.MaxPages != 200 || !c.OCR.On() ||
		c.OCR.PageTimeout != time.Minute || c.OCR.MinConfidence != 60 {
		t.Fatalf("defaults %+v %v", c.OCR, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("ocr:\n  enabled: false\n  languages: [chi_tra]\n  max_pages: 5\n  page_timeout: 10s\n  min_confidence: 75\n"), 0o600)
	c, err = Load(path, env(nil))
	if err != nil || c.OCR.On() || strings.Join(c.OCR.Languages, ",") != "chi_tra" || c.OCR.MaxPages != 5 ||
		c.OCR.PageTimeout != 10*time.Second || c.OCR.MinConfidence != 75 {
		t.Fatalf("from the file %+v %v", c.OCR, err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"ocr:\n  languages: []", "ocr.languages"},
		{"ocr:\n  languages: [eng, '-psm 0']", "ocr.languages"},
		{"ocr:\n  languages: [eng, eng]", "listed twice"},
		{"ocr:\n  languages: [osd]", "ocr.languages"},
		{"ocr:\n  max_pages: 0", "ocr.max_pages"},
		{"ocr:\n  page_timeout: 1h", "ocr.page_timeout"},
		{"ocr:\n  min_confidence: 101", "ocr.min_confidence"},
	} {
		path := filepath.Join(t.TempDir(), "k.yaml")
		os.WriteFile(path, []byte(tc.yaml), 0o600)
		if _, err := Load(path, env(nil)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: want an error naming %q, got %v", tc.yaml, tc.want, err)
		}
	}
}
