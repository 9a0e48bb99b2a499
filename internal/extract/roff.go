package extract

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A man page (roff with the man or mdoc macros) is read as the manual's
// text, not as a typesetter would lay it out: comments, definitions and
// layout requests go, macro arguments stay as text (".SH NAME" is
// "NAME", ".B ls" is "ls"), escapes become the characters they print, and
// filled text joins into one line per paragraph, so a sentence split
// across source lines is found by a search for it.

// looksLikeRoff tells a man page from a text file that merely has a
// section-like suffix: a roff page has a title or section request.
func looksLikeRoff(b []byte) bool {
	head := b[:min(len(b), 64<<10)]
	for _, m := range []string{".TH ", ".Dt ", ".SH ", ".Sh ", ".Dd "} {
		if bytes.HasPrefix(head, []byte(m)) || bytes.Contains(head, []byte("\n"+m)) {
			return true
		}
	}
	return false
}

// extractMan renders a man page to text.
func extractMan(raw []byte) (Result, error) {
	text, enc, ok := DecodeText(raw)
	if !ok {
		return Result{}, Fail(CodeUnsupported, "its gzip-compressed content is binary, not a man page")
	}
	return Result{Text: renderRoff(text), Format: "man", Encoding: enc, Extractor: "roff"}, nil
}

// roff holds the renderer's state between lines.
type roff struct {
	out    strings.Builder
	para   strings.Builder // the filled paragraph being built
	noFill bool
	join   bool   // the last text ended in \c: no space before the next
	name   string // mdoc's .Nm, repeated by a bare .Nm
	// tagNext: the next text line is a .TP tag, a line of its own.
	tagNext bool
}

// noText are requests and macros whose arguments are layout, not text.
var noText = setOf("ad af bd bp br c2 cc ce cf ch cs cu da di ds ec el em eo ev ex fc fi fl fp ft hc hw hy ie if in it lc lg li ll ls lt mc mk na ne nf nh nm nn nr ns nx os pc pi pl pm pn po ps rd rm rn rr rs rt so sp ss sv sy ta tc ti tl tm tr uf ul vs wh " +
	// man
	"PD RS RE PP LP P HP TP TQ IX UC EE EX ME UE ad DT IN " +
	// pod2man's own
	"Vb Ve Sp " +
	// mdoc
	"Bd Ed Bl El Bk Ek Pp Lp Sm Os Dd")

// paragraph macros end the paragraph before them.
var paragraph = setOf("SH SS PP LP P TP TQ IP HP Sh Ss Pp Lp It Bl El Bd Ed D1 Dl RS RE")

// breaks end the line.
var breaks = setOf("br sp Sp ti nf fi EX EE")

// joined are the man font macros that alternate fonts, their arguments
// printed without spaces between them (.BR ls (1) is "ls(1)").
var joined = setOf("BR RB BI IB IR RI")

// mdocCallable are mdoc macros that may appear among another macro's
// arguments; their names are not text.
var mdocCallable = setOf("Ad An Ap Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Ec Em En Eo Er Es Ev Ex Fa Fc Fd Fl Fn Fo Fr Ft Fx Ic In Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ot Ox Pa Pc Pf Po Pq Qc Ql Qo Qq Re Rs Rv Sc So Sq St Sx Sy Ta Tn Ux Va Vt Xc Xo Xr Nd Dt Sh Ss It D1 Dl Em")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func renderRoff(src string) string {
	r := &roff{}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	skipTo := "" // inside .de or .ig: the line that ends it
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		// A backslash at the end continues the line.
		for strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + lines[i]
		}
		if skipTo != "" {
			if strings.TrimSpace(line) == skipTo {
				skipTo = ""
			}
			continue
		}
		if line != "" && (line[0] == '.' || line[0] == '\'') {
			skipTo = r.control(line[1:])
			continue
		}
		r.text(line)
	}
	r.endPara()
	return strings.TrimSpace(collapseBlankLines(r.out.String()))
}

// control handles one request or macro line (without its control
// character); it returns the line that ends a block to skip, if it starts
// one.
func (r *roff) control(line string) string {
	line = strings.TrimLeft(line, " \t")
	if strings.HasPrefix(line, `\"`) || strings.HasPrefix(line, `\#`) || line == "" {
		return ""
	}
	// A name ends at a blank or an escape (.el\{\ starts a block).
	end := strings.IndexAny(line, " \t\\")
	if end < 0 {
		end = len(line)
	}
	name, rest := line[:end], line[end:]
	switch name {
	case "de", "de1", "am", "ig", "ami", "dei":
		return ".."
	case ".":
		return ""
	}
	if breaks[name] {
		r.lineBreak()
	}
	switch name {
	case "nf", "EX", "Vb":
		r.noFill = true
	case "fi", "EE", "Ve":
		r.noFill = false
	case "Bd":
		r.noFill = strings.Contains(rest, "-literal") || strings.Contains(rest, "-unfilled")
	case "Ed":
		r.noFill = false
	}
	if paragraph[name] {
		r.endPara()
	}
	// .TP's tag is the next line, the text after it.
	r.tagNext = name == "TP" || name == "TQ"
	if noText[name] {
		return ""
	}
	args := roffArgs(rest)
	var words []string
	switch {
	case name == "TH" || name == "Dt":
		r.writeLine(strings.Join(mapText(args), " "))
		return ""
	case name == "SH" || name == "SS" || name == "Sh" || name == "Ss":
		r.writeLine(strings.Join(mapText(args), " "))
		r.out.WriteString("\n")
		return ""
	case name == "IP":
		if len(args) > 0 {
			words = mapText(args[:1])
		}
	case joined[name]:
		words = []string{strings.Join(mapText(args), "")}
	case len(name) == 2 && name[0] >= 'A' && name[0] <= 'Z' && name[1] >= 'a' && name[1] <= 'z':
		words = r.mdoc(name, args)
	case len(name) <= 2 && strings.ToLower(name) == name:
		return "" // an unknown troff request
	default:
		words = mapText(args)
	}
	r.words(strings.Join(words, " "))
	if name == "Nd" || name == "IP" || name == "It" {
		r.lineBreak()
	}
	return ""
}

// mdoc renders an mdoc macro line: callable macros among the arguments
// are dropped, Fl prefixes a dash, Xr writes name(section), Ns joins.
func (r *roff) mdoc(name string, args []string) []string {
	all := append([]string{name}, args...)
	var out []string
	glue := false
	for i := 0; i < len(all); i++ {
		a := all[i]
		var word string
		switch {
		case a == "Ns":
			glue = true
			continue
		case a == "Nm" && (i+1 >= len(all) || mdocCallable[all[i+1]]):
			word = r.name
		case a == "Nm":
			if r.name == "" {
				r.name = roffText(all[i+1])
			}
			continue
		case a == "Nd" && i == 0:
			word = "-"
		case a == "Fl":
			word = "-"
			if i+1 < len(all) && !mdocCallable[all[i+1]] {
				i++
				word += roffText(all[i])
			}
		case a == "Xr" && i+2 < len(all):
			word = roffText(all[i+1]) + "(" + roffText(all[i+2]) + ")"
			i += 2
		case a == "Ux":
			word = "UNIX"
		case a == "Oo":
			word, glue = "[", false
		case a == "Oc":
			glue, word = true, "]"
		case mdocCallable[a] || i == 0:
			continue
		default:
			word = roffText(a)
		}
		if glue && len(out) > 0 {
			out[len(out)-1] += word
		} else {
			out = append(out, word)
		}
		glue = a == "Oo"
	}
	return out
}

// text handles a line of text.
func (r *roff) text(line string) {
	if strings.TrimSpace(line) == "" {
		if r.noFill {
			r.writeLine("")
		} else {
			r.endPara()
		}
		return
	}
	if r.noFill {
		r.writeLine(strings.TrimRight(roffText(line), " "))
		return
	}
	r.words(line)
	if r.tagNext {
		r.tagNext = false
		r.lineBreak()
	}
}

// words adds roff text to the paragraph being filled.
func (r *roff) words(s string) {
	t := roffText(s)
	join := strings.HasSuffix(strings.TrimRight(s, " "), `\c`)
	t = strings.TrimSpace(t)
	if t == "" {
		return
	}
	if r.noFill {
		r.writeLine(t)
		return
	}
	if r.para.Len() > 0 && !r.join {
		r.para.WriteByte(' ')
	}
	r.para.WriteString(t)
	r.join = join
}

func (r *roff) lineBreak() {
	if r.para.Len() > 0 {
		r.out.WriteString(r.para.String())
		r.out.WriteString("\n")
		r.para.Reset()
	}
	r.join = false
}

func (r *roff) endPara() {
	r.lineBreak()
	if !strings.HasSuffix(r.out.String(), "\n\n") && r.out.Len() > 0 {
		r.out.WriteString("\n")
	}
}

func (r *roff) writeLine(s string) {
	r.lineBreak()
	r.out.WriteString(s)
	r.out.WriteString("\n")
}

func collapseBlankLines(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}

// roffArgs splits a macro's arguments: blanks separate them, double
// quotes group them ("" is a quote inside), \" starts a comment.
func roffArgs(s string) []string {
	var args []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" || strings.HasPrefix(s, `\"`) {
			return args
		}
		var a strings.Builder
		if s[0] == '"' {
			s = s[1:]
			for len(s) > 0 {
				if s[0] == '"' {
					if len(s) > 1 && s[1] == '"' {
						a.WriteByte('"')
						s = s[2:]
						continue
					}
					s = s[1:]
					break
				}
				a.WriteByte(s[0])
				s = s[1:]
			}
		} else {
			for len(s) > 0 && s[0] != ' ' && s[0] != '\t' {
				if strings.HasPrefix(s, `\"`) {
					s = ""
					break
				}
				if s[0] == '\\' && len(s) > 1 {
					a.WriteString(s[:2])
					s = s[2:]
					continue
				}
				a.WriteByte(s[0])
				s = s[1:]
			}
		}
		args = append(args, a.String())
	}
}

func mapText(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if t := roffText(a); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// roffText replaces the escapes of a line of roff text with what they
// print: fonts, sizes, motions and registers print nothing.
func roffText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		e := s[i]
		switch e {
		case '"', '#':
			return b.String() // a comment to the end of the line
		case '-':
			b.WriteByte('-')
		case 'e', 'E', '\\':
			b.WriteByte('\\')
		case ' ', '~', '0', 't':
			b.WriteByte(' ')
		case '.', '\'', '`':
			b.WriteByte(e)
		case '&', '|', '^', ':', '%', '/', ',', 'c', 'd', 'u', 'r', 'a', 'p', '{', '}', '\n':
		case '(':
			if i+2 < len(s) {
				b.WriteString(glyph(s[i+1 : i+3]))
				i += 2
			} else {
				i = len(s)
			}
		case '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return b.String()
			}
			b.WriteString(glyph(s[i+1 : i+j]))
			i += j
		case '*':
			var name string
			name, i = escapeName(s, i+1)
			b.WriteString(roffStrings[name])
		case 'f', 'n', 'g', 'j', 'm', 'M', 'F', 'Y', 'V', 'O', '$', 'k':
			_, i = escapeName(s, i+1)
		case 's':
			i = skipSize(s, i+1)
		case 'h', 'v', 'w', 'l', 'L', 'o', 'b', 'x', 'D', 'X', 'Z', 'A', 'B', 'C', 'R', 'S', 'H', 'N':
			i = skipDelimited(s, i+1)
		case 'z':
			// the next character prints, only with no width
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// escapeName reads the name of an escape starting at s[i]: one character,
// "(xx", or "[name]"; it returns the name and the index of its last byte.
func escapeName(s string, i int) (string, int) {
	switch {
	case i >= len(s):
		return "", len(s)
	case s[i] == '(':
		if i+2 < len(s) {
			return s[i+1 : i+3], i + 2
		}
		return "", len(s)
	case s[i] == '[':
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return "", len(s)
		}
		return s[i+1 : i+j], i + j
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return s[i : i+size], i + size - 1
}

// skipSize passes \s's argument: \s0, \s-1, \s+2, \s(12, \s[12], \s'12'.
func skipSize(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	switch {
	case i >= len(s):
		return len(s)
	case s[i] == '(' || s[i] == '[':
		_, end := escapeName(s, i)
		return end
	case s[i] == '\'':
		return skipDelimited(s, i)
	}
	j := i
	for j < len(s) && j < i+2 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return max(j-1, i)
}

// skipDelimited passes an argument in delimiters, \h'1i' or \w"text".
func skipDelimited(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
		return i + 1 + j
	}
	return len(s)
}

// glyph prints a special character by its name (\(em, \[u00E9]).
func glyph(name string) string {
	if g, ok := roffGlyphs[name]; ok {
		return g
	}
	if strings.HasPrefix(name, "u") && len(name) >= 5 {
		if n, err := strconv.ParseUint(strings.SplitN(name[1:], "_", 2)[0], 16, 32); err == nil && utf8.ValidRune(rune(n)) {
			return string(rune(n))
		}
	}
	return ""
}

var roffGlyphs = map[string]string{
	"em": "—", "en": "–", "hy": "-", "mi": "-", "aq": "'", "dq": `"`, "lq": "“", "rq": "”",
	"oq": "‘", "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "mu": "×", "di": "÷",
	"de": "°", "pl": "+", "eq": "=", "ti": "~", "ha": "^", "ba": "|", "bv": "|", "or": "|",
	"sl": "/", "rs": `\`, "ga": "`", "aa": "´", "ua": "↑", "da": "↓", "->": "→", "<-": "←",
	"<>": "↔", "rA": "⇒", "lA": "⇐", ">=": "≥", "<=": "≤", "!=": "≠", "==": "≡", "+-": "±",
	"sc": "§", "ps": "¶", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ct": "¢", "Po": "£",
	"Ye": "¥", "Eu": "€", "eu": "€", "12": "½", "14": "¼", "34": "¾", "ss": "ß", "dg": "†",
	"at": "@", "sh": "#", "Do": "$", "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "⟨",
	"ra": "⟩", "ci": "○", "sq": "□", "ul": "_", "ru": "_", "pc": "·", "md": "·",
	":a": "ä", ":o": "ö", ":u": "ü", ":A": "Ä", ":O": "Ö", ":U": "Ü", "'e": "é", "`e": "è",
	"'a": "á", "`a": "à", "^a": "â", "^e": "ê", "^o": "ô", ",c": "ç", "~n": "ñ", "'E": "É",
	"if": "∞", "*a": "α", "*b": "β", "*g": "γ", "*d": "δ", "*m": "μ", "*p": "π", "*l": "λ",
}

// roffStrings are the predefined strings man pages use (\*(lq, \*R).
var roffStrings = map[string]string{
	"lq": "“", "rq": "”", "R": "®", "Tm": "™", "Aq": "'", "C`": `"`, "C'": `"`, "PI": "π",
	"L\"": "“", "R\"": "”", "Ba": "|", "Le": "≤", "Ge": "≥", "Lt": "<", "Gt": ">", "Pm": "±",
	"Am": "&", "Na": "NaN", "If": "∞", "Pi": "π", "Ne": "≠", "Lq": "“", "Rq": "”", "q": `"`,
}
