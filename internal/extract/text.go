package extract

import (
	"bytes"
	"context"
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
// in (see the Enc constants), or ok=false when raw is binary: it contains
// NUL or control bytes outside UTF-16, or no candidate encoding decodes it
// without invalid sequences. A UTF-8 byte order mark is dropped.
func DecodeText(raw []byte) (text, encoding string, ok bool) {
	if text, enc, ok := decodeUnicode(raw); ok {
		return text, enc, true
	}
	c, ok := detectLegacy(raw)
	if !ok {
		return "", "", false
	}
	out, err := c.enc.NewDecoder().Bytes(raw)
	if err != nil {
		return "", "", false
	}
	return string(out), c.name, true
}

// MayBeText is a cheap look at a file's first bytes (head) and whether it
// has a NUL anywhere: false means DecodeText would call it binary, so a
// caller can skip reading the whole file. A NUL settles it unless a byte
// order mark or the NUL pattern of ASCII-heavy UTF-16 says UTF-16.
func MayBeText(head []byte, hasNUL bool) bool {
	if !hasNUL || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return true
	}
	return utf16Pattern(head) != 0
}
