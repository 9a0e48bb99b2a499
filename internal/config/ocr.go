package config

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/knowspace/knowspace/internal/extract"
)

// OCR configures reading scanned pages and images with Tesseract.
type OCR struct {
	// Enabled turns OCR off when false (default true); with it on, OCR
	// runs only when the tesseract binary is on the PATH.
	Enabled *bool `yaml:"enabled"`
	// Languages are Tesseract language codes tried together (default
	// [eng, chi_sim]); each needs its tesseract-ocr-<lang> package.
	Languages []string `yaml:"languages"`
	// MaxPages caps the pages of one document that are OCRed.
	MaxPages int `yaml:"max_pages"`
	// PageTimeout is one page's budget.
	PageTimeout time.Duration `yaml:"page_timeout"`
	// MinConfidence (0–100) is the mean word confidence under which a page
	// is marked low_confidence.
	MinConfidence float64 `yaml:"min_confidence"`
}

// defaultOCR is the extractor's own defaults, so the two cannot drift.
func defaultOCR() OCR {
	return OCR{Languages: slices.Clone(extract.DefaultOCRLanguages), MaxPages: extract.DefaultOCRMaxPages,
		PageTimeout: extract.DefaultOCRPageTimeout, MinConfidence: extract.DefaultOCRMinConfidence}
}

// On reports whether OCR is enabled.
func (o OCR) On() bool { return o.Enabled == nil || *o.Enabled }

func (o OCR) validate() error {
	if len(o.Languages) == 0 || len(o.Languages) > 8 {
		return errors.New("ocr.languages: list 1 to 8 Tesseract language codes, e.g. [eng, chi_sim]")
	}
	seen := map[string]bool{}
	for _, l := range o.Languages {
		if !validLanguage(l) {
			return fmt.Errorf("ocr.languages: %q is not a Tesseract language code (letters, digits and _, e.g. chi_sim)", l)
		}
		if seen[l] {
			return fmt.Errorf("ocr.languages: %q is listed twice", l)
		}
		seen[l] = true
	}
	if o.MaxPages < 1 || o.MaxPages > 100_000 {
		return errors.New("ocr.max_pages: must be between 1 and 100000")
	}
	if o.PageTimeout < time.Second || o.PageTimeout > 10*time.Minute {
		return errors.New("ocr.page_timeout: must be between 1s and 10m")
	}
	if o.MinConfidence < 0 || o.MinConfidence > 100 {
		return errors.New("ocr.min_confidence: must be between 0 and 100")
	}
	return nil
}

// validLanguage accepts Tesseract's traineddata names: they become an
// argument of the tesseract command, so nothing else may pass.
func validLanguage(l string) bool {
	if l == "" || len(l) > 32 || l == "osd" {
		return false
	}
	for i, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '_')) {
			return false
		}
	}
	return true
}
