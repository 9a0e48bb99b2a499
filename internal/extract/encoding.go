package extract

import (
	"bytes"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// Names of the encodings DecodeText reports. GBK is reported as gb18030,
// its superset, which decodes every GBK file identically.
const (
	EncUTF8        = "utf-8"
	EncUTF16LE     = "utf-16le"
	EncUTF16BE     = "utf-16be"
	EncGB18030     = "gb18030"
	EncBig5        = "big5"
	EncShiftJIS    = "shift_jis"
	EncEUCJP       = "euc-jp"
	EncEUCKR       = "euc-kr"
	EncWindows1252 = "windows-1252"
)

// detectSample bounds how much of a file the detector scores; the winner
// then decodes the whole file.
const detectSample = 64 << 10

// candidate is a legacy encoding the detector may choose. Order breaks
// ties: a pure-Han text that is equally plausible as GB18030 and EUC-JP is
// called Chinese, the more common case for our users.
type candidate struct {
	name string
	enc  encoding.Encoding
	// lang says which scripts are native to the encoding's language.
	lang byte // 'z' Chinese, 'j' Japanese, 'k' Korean, 'l' Latin
	// common returns the Han characters of the encoding's first (most
	// frequent) level; the rest of its Han repertoire is rarer.
	common func() map[rune]bool
}

var candidates = []candidate{
	{EncGB18030, simplifiedchinese.GB18030, 'z', commonGB},
	{EncBig5, traditionalchinese.Big5, 'z', commonBig5},
	{EncShiftJIS, japanese.ShiftJIS, 'j', commonJIS},
	{EncEUCJP, japanese.EUCJP, 'j', commonJIS},
	{EncEUCKR, korean.EUCKR, 'k', commonKSC},
	{EncWindows1252, charmap.Windows1252, 'l', nil},
}

// decodeUnicode handles what a BOM or a NUL pattern settles; ok=false
// leaves raw to the legacy detector.
func decodeUnicode(raw []byte) (text, enc string, ok bool) {
	switch {
	case bytes.HasPrefix(raw, []byte{0xEF, 0xBB, 0xBF}) && utf8.Valid(raw[3:]):
		return string(raw[3:]), EncUTF8, true
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}):
		return decodeUTF16(raw[2:], xunicode.LittleEndian, EncUTF16LE)
	case bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		return decodeUTF16(raw[2:], xunicode.BigEndian, EncUTF16BE)
	case utf8.Valid(raw) && bytes.IndexByte(raw, 0) < 0:
		return string(raw), EncUTF8, true
	}
	switch utf16Pattern(raw) {
	case 'l':
		return decodeUTF16(raw, xunicode.LittleEndian, EncUTF16LE)
	case 'b':
		return decodeUTF16(raw, xunicode.BigEndian, EncUTF16BE)
	}
	return "", "", false
}

func decodeUTF16(raw []byte, e xunicode.Endianness, name string) (string, string, bool) {
	out, err := xunicode.UTF16(e, xunicode.IgnoreBOM).NewDecoder().Bytes(raw)
	if err != nil || !plausibleText(string(out)) {
		return "", "", false
	}
	return string(out), name, true
}

// utf16Pattern recognises BOM-less UTF-16 of mostly ASCII text: NULs in
// nearly every second byte and almost none in the others. It returns 'l',
// 'b' or 0.
func utf16Pattern(raw []byte) byte {
	n := min(len(raw), 4096) &^ 1
	if n < 4 {
		return 0
	}
	var even, odd int
	for i := 0; i < n; i += 2 {
		if raw[i] == 0 {
			even++
		}
		if raw[i+1] == 0 {
			odd++
		}
	}
	pairs := n / 2
	switch {
	case odd*10 >= pairs*6 && even*20 <= pairs:
		return 'l'
	case even*10 >= pairs*6 && odd*20 <= pairs:
		return 'b'
	}
	return 0
}

// plausibleText rejects decodings that contain invalid sequences or the
// control characters that mark binary data.
func plausibleText(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || isBinaryControl(r) {
			return false
		}
	}
	return true
}

func isBinaryControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\f', '\v', 0x1b:
		return false
	}
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
}

// detectLegacy decodes a sample of raw with every candidate and returns the
// one whose text looks most like writing, or ok=false when none decodes.
func detectLegacy(raw []byte) (candidate, bool) {
	sample := raw
	cut := false
	if len(sample) > detectSample {
		sample, cut = sample[:detectSample], true
		// A newline is one byte 0x0A in every candidate and never a trail
		// byte, so cutting after one never splits a character.
		if i := bytes.LastIndexByte(sample, '\n'); i > detectSample/2 {
			sample, cut = sample[:i+1], false
		}
	}
	best, bestScore, found := candidate{}, 0, false
	for _, c := range candidates {
		out, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		text := string(out)
		if cut {
			// The sample may end inside a character: forgive its last rune.
			if _, size := utf8.DecodeLastRuneInString(text); size > 0 {
				text = text[:len(text)-size]
			}
		}
		s, ok := score(text, c)
		if ok && (!found || s > bestScore) {
			best, bestScore, found = c, s, true
		}
	}
	return best, found
}

// score rates how much text decoded with c looks like writing in c's
// language; ok=false means the decoding is impossible (invalid sequences,
// binary control characters).
func score(text string, c candidate) (int, bool) {
	var common map[rune]bool
	if c.common != nil {
		common = c.common()
	}
	s := 0
	var prev, prev2 rune
	for _, r := range text {
		if r == utf8.RuneError || isBinaryControl(r) {
			return 0, false
		}
		switch {
		case r < 0x80:
		case r >= 0xE000 && r <= 0xF8FF: // private use: a mapping artefact
			s -= 4
		case r >= 0x3040 && r <= 0x30FF: // kana
			if c.lang == 'j' {
				s += 2
			} else {
				s -= 2
			}
		case r >= 0xFF61 && r <= 0xFF9F: // half-width katakana, rare today
			s--
		case r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables
			switch {
			case c.lang != 'k':
				s -= 2
			case common[r]:
				s += 2
			default: // the UHC extension of x/text's EUC-KR: rarely written
				s--
			}
		case unicode.Is(unicode.Han, r):
			switch {
			case c.lang == 'k': // Hanja are rare in modern Korean
				s--
			case common != nil && common[r]:
				s += 2
			case common == nil:
				s -= 2
			default:
				s--
			}
		case r >= 0x3000 && r <= 0x303F || r >= 0xFF01 && r <= 0xFF60: // CJK punctuation, full-width forms
			if c.lang != 'l' {
				s++
			}
		case unicode.IsLetter(r) && r < 0x250: // Latin with diacritics
			if c.lang == 'l' && (isLatinLetter(prev) || r >= 0xC0 && r <= 0xDE) {
				s++
			}
		case r >= 0x2010 && r <= 0x20AC: // dashes, quotes, ellipsis, euro
			if c.lang == 'l' {
				s++
			}
		default:
			s--
		}
		// Korean separates words by spaces; Chinese and Japanese do not.
		if prev == ' ' && isCJK(prev2) && isCJK(r) {
			if c.lang == 'k' {
				s++
			} else {
				s -= 2
			}
		}
		prev2, prev = prev, r
	}
	return s, true
}

func isLatinLetter(r rune) bool { return r < 0x250 && unicode.IsLetter(r) }

func isCJK(r rune) bool {
	return r >= 0x3040 && r <= 0x30FF || r >= 0xAC00 && r <= 0xD7A3 || unicode.Is(unicode.Han, r)
}

var (
	commonOnce                          sync.Once
	gbCommon, big5Common, jisL1, ksHang map[rune]bool
)

func commonGB() map[rune]bool   { commonOnce.Do(buildCommon); return gbCommon }
func commonBig5() map[rune]bool { commonOnce.Do(buildCommon); return big5Common }
func commonJIS() map[rune]bool  { commonOnce.Do(buildCommon); return jisL1 }
func commonKSC() map[rune]bool  { commonOnce.Do(buildCommon); return ksHang }

// buildCommon derives each encoding's frequent Han characters from the
// encoding itself: GB2312 level 1 (rows 0xB0–0xD7, the 3755 commonest
// simplified characters), Big5's frequently used block (0xA440–0xC67E) and
// JIS X 0208 level 1 (EUC-JP rows 0xB0–0xCF); for Korean, the 2350 Hangul
// syllables of KS X 1001 (rows 0xB0–0xC8), outside which x/text's EUC-KR
// (really UHC) decodes almost any byte pair as some syllable.
func buildCommon() {
	gbCommon = decodeRange(simplifiedchinese.GBK, 0xB0, 0xD7, 0xA1, 0xFE, nil)
	big5Common = decodeRange(traditionalchinese.Big5, 0xA4, 0xC6, 0x40, 0xFE, func(lead, trail int) bool {
		return trail > 0x7E && trail < 0xA1 || lead == 0xC6 && trail > 0x7E
	})
	jisL1 = decodeRange(japanese.EUCJP, 0xB0, 0xCF, 0xA1, 0xFE, nil)
	ksHang = decodeRange(korean.EUCKR, 0xB0, 0xC8, 0xA1, 0xFE, nil)
}

func decodeRange(e encoding.Encoding, lead0, lead1, trail0, trail1 int, skip func(lead, trail int) bool) map[rune]bool {
	var b []byte
	for lead := lead0; lead <= lead1; lead++ {
		for trail := trail0; trail <= trail1; trail++ {
			if skip == nil || !skip(lead, trail) {
				b = append(b, byte(lead), byte(trail))
			}
		}
	}
	out, _ := e.NewDecoder().Bytes(b)
	set := make(map[rune]bool, len(b)/2)
	for _, r := range string(out) {
		if unicode.Is(unicode.Han, r) || r >= 0xAC00 && r <= 0xD7A3 {
			set[r] = true
		}
	}
	return set
}
