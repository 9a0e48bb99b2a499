package extract

import (
	"bytes"
	"context"
	"strings"
	"unicode/utf8"
)

// extractText reads a file whose bytes are its own text.
func extractText(_ context.Context, raw []byte, _ Limits) (Result, error) {
	text, enc, ok := DecodeText(raw)
	if !ok {
		return Result{}, Fail(CodeUnsupported, "a binary file of an unknown type, which cannot be read as text")
	}
	return Result{Text: text, Format: "text", Encoding: enc, Extractor: "text"}, nil
}

// DecodeText returns raw as UTF-8 text with the name of the encoding it was
// in, or ok=false when raw is binary.
func DecodeText(raw []byte) (text, encoding string, ok bool) {
	if utf8.Valid(raw) && bytes.IndexByte(raw, 0) < 0 {
		return strings.TrimPrefix(string(raw), "\ufeff"), "utf-8", true
	}
	return "", "", false
}
