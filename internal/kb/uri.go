package kb

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/knowspace/knowspace/internal/apierr"
)

// URI limits and spellings (SPEC §3).
const (
	Scheme       = "kb://"
	MaxNameBytes = 255
	MaxURIBytes  = 4096
)

// usernamePattern is shared with account creation: names are lower-case so
// that a URI's user segment can be compared without case games.
var usernamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// invisibleRune is a character that changes how a name reads without being
// seen: bidi overrides and isolates (which can make "gpj.exe" show as
// "exe.jpg"), zero-width spaces and joiners, and the byte-order mark.
func invisibleRune(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	case r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF, r == 0x180E:
		return true
	}
	return false
}

// ValidUsername reports whether name is an acceptable account name.
func ValidUsername(name string) bool { return usernamePattern.MatchString(name) }

// URI is a parsed, normalized kb:// address of a node in a personal tree.
type URI struct {
	Username string // owner, lower-case
	Path     string // "" for the root, else "a/b" with no leading or trailing slash
	Dir      bool   // the spelling ended with "/"
}

// String spells the URI canonically; the root is always a folder.
func (u URI) String() string {
	s := Scheme + "users/" + u.Username + "/"
	if u.Path == "" {
		return s
	}
	s += u.Path
	if u.Dir {
		s += "/"
	}
	return s
}

// Name is the last segment ("" for the root).
func (u URI) Name() string {
	return u.Path[strings.LastIndexByte(u.Path, '/')+1:]
}

// Parent is the URI of the folder holding u; the root is its own parent.
func (u URI) Parent() URI {
	i := strings.LastIndexByte(u.Path, '/')
	if i < 0 {
		return URI{Username: u.Username, Dir: true}
	}
	return URI{Username: u.Username, Path: u.Path[:i], Dir: true}
}

// Child joins a validated name below u.
func (u URI) Child(name string, dir bool) URI {
	p := name
	if u.Path != "" {
		p = u.Path + "/" + name
	}
	return URI{Username: u.Username, Path: p, Dir: dir}
}

// NodeURI spells the URI of a node owned by username.
func NodeURI(username, path string, dir bool) string {
	return URI{Username: username, Path: path, Dir: dir}.String()
}

func invalidURI(format string, args ...any) error {
	return apierr.BadRequest(apierr.CodeInvalidURI, format, args...)
}

// ParseURI parses raw for the caller: kb://me/… and the personal-root alias
// kb://users/ mean the caller's own tree. Segments are NFC-normalized; dot
// segments, empty segments, encoded separators, backslashes, control
// characters and over-long names are refused. A URI is never a disk path.
func ParseURI(raw, caller string) (URI, error) {
	if raw == "" {
		return URI{}, invalidURI("uri is required")
	}
	if len(raw) > MaxURIBytes {
		return URI{}, invalidURI("uri is longer than %d bytes", MaxURIBytes)
	}
	if !utf8.ValidString(raw) {
		return URI{}, invalidURI("uri is not valid UTF-8")
	}
	rest, ok := strings.CutPrefix(raw, Scheme)
	if !ok {
		return URI{}, invalidURI("uri must start with %s (got %q)", Scheme, Clip(raw, 40))
	}
	var owner string
	switch {
	case rest == "me" || rest == "users":
		return URI{Username: caller, Dir: true}, nil
	case strings.HasPrefix(rest, "me/"):
		owner, rest = caller, rest[len("me/"):]
	case rest == "users/":
		return URI{Username: caller, Dir: true}, nil
	case strings.HasPrefix(rest, "users/"):
		rest = rest[len("users/"):]
		owner, rest, _ = strings.Cut(rest, "/")
		owner = strings.ToLower(owner)
		if !ValidUsername(owner) {
			return URI{}, invalidURI("%q is not a valid user name in a uri", Clip(owner, 40))
		}
	case rest == "shared" || strings.HasPrefix(rest, "shared/"):
		return URI{}, SharedURIError(raw)
	default:
		return URI{}, invalidURI("uri must look like kb://users/<name>/<path> or kb://me/<path>")
	}
	u := URI{Username: owner, Dir: rest == "" || strings.HasSuffix(rest, "/")}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		u.Dir = true
		return u, nil
	}
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		name, err := ValidateName(seg)
		if err != nil {
			return URI{}, err
		}
		segs[i] = name
	}
	u.Path = strings.Join(segs, "/")
	return u, nil
}

// ValidateName checks one path segment and returns its NFC form.
func ValidateName(seg string) (string, error) {
	switch seg {
	case "":
		return "", invalidURI("uri has an empty path segment (//)")
	case ".", "..":
		return "", invalidURI("uri segments %q are not allowed", seg)
	}
	if !utf8.ValidString(seg) {
		return "", invalidURI("name is not valid UTF-8")
	}
	lower := strings.ToLower(seg)
	for _, enc := range []string{"%2f", "%5c", "%2e", "%00"} {
		if strings.Contains(lower, enc) {
			return "", invalidURI("uri contains an encoded separator or dot (%s)", strings.ToUpper(enc))
		}
	}
	for _, r := range seg {
		if r == '\\' || r == '/' {
			return "", invalidURI("names may not contain slashes or backslashes")
		}
		if unicode.IsControl(r) {
			return "", invalidURI("names may not contain control characters")
		}
		if invisibleRune(r) {
			return "", invalidURI("names may not contain invisible or direction-changing characters (U+%04X): they make a name look like another", r)
		}
	}
	seg = norm.NFC.String(seg)
	if len(seg) > MaxNameBytes {
		return "", invalidURI("name is longer than %d bytes", MaxNameBytes)
	}
	return seg, nil
}

// Clip shortens s to at most n bytes on a rune boundary, marking the cut
// with "…", so a message quoting user input stays readable.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// SharedURIError explains kb://shared/ to a caller using it where a real
// node is needed.
func SharedURIError(raw string) error {
	return invalidURI("%s is the virtual folder of what others share with you: it can be listed, and each entry has its own kb://users/<owner>/… uri to use instead", strings.TrimSuffix(Clip(raw, 40), "/")+"/")
}
