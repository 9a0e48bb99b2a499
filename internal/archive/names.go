package archive

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/knowspace/knowspace/internal/kb"
)

// DecodeName turns a stored entry name into UTF-8. Zip tools on Windows
// write names in the machine's code page and leave the UTF-8 flag clear,
// so a name is read as UTF-8 when it is valid UTF-8 (flagged or not: a
// flagged but invalid name is a writer's bug), then as GB18030 (a
// superset of GBK, the most common legacy case) when that decodes without
// a replacement character, and as CP437, the zip standard's default,
// otherwise — which maps every byte, so no name is ever lost.
func DecodeName(raw []byte) string {
	if utf8.Valid(raw) {
		return string(raw)
	}
	if s, err := simplifiedchinese.GB18030.NewDecoder().Bytes(raw); err == nil && utf8.Valid(s) && !strings.ContainsRune(string(s), utf8.RuneError) {
		return string(s)
	}
	s, _ := charmap.CodePage437.NewDecoder().Bytes(raw)
	return string(s)
}

// splitName checks a decoded name and splits it into segments: absolute
// paths (/x, C:\x, \\host\x) and ".." anywhere are refused, backslashes
// count as separators (Windows writers), and "." and empty segments drop.
func splitName(name string) ([]string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || hasDrive(n) {
		return nil, refuse(CodeUnsafePath, "%q is an absolute path", kb.Clip(name, 80))
	}
	var segs []string
	for _, s := range strings.Split(n, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return nil, refuse(CodeUnsafePath, "%q climbs out of the archive with ..", kb.Clip(name, 80))
		}
		segs = append(segs, s)
	}
	return segs, nil
}

func hasDrive(n string) bool {
	return len(n) >= 2 && n[1] == ':' && (n[0]|0x20 >= 'a' && n[0]|0x20 <= 'z')
}
