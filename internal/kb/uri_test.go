package kb

import (
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
)

func TestParseURI(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", MaxNameBytes+1)
	okCases := []struct{ raw, want string }{
		{"kb://users/alice/", "kb://users/alice/"},
		{"kb://users/alice", "kb://users/alice/"},
		{"kb://users/", "kb://users/alice/"},
		{"kb://users", "kb://users/alice/"},
		{"kb://me", "kb://users/alice/"},
		{"kb://me/", "kb://users/alice/"},
		{"kb://me/notes/", "kb://users/alice/notes/"},
		{"kb://me/notes/a.md", "kb://users/alice/notes/a.md"},
		{"kb://users/ALICE/notes/", "kb://users/alice/notes/"},
		{"kb://users/bob/x.md", "kb://users/bob/x.md"},
		{"kb://me/会议纪要.md", "kb://users/alice/会议纪要.md"},
		{"kb://me/cafe\u0301.md", "kb://users/alice/café.md"}, // NFD → NFC
		{"kb://me/100% done.md", "kb://users/alice/100% done.md"},
		{"kb://me/" + strings.Repeat("a", MaxNameBytes), "kb://users/alice/" + strings.Repeat("a", MaxNameBytes)},
	}
	for _, tc := range okCases {
		u, err := ParseURI(tc.raw, "alice")
		if err != nil {
			t.Errorf("%q: unexpected error %v", tc.raw, err)
			continue
		}
		if got := u.String(); got != tc.want {
			t.Errorf("%q: got %q want %q", tc.raw, got, tc.want)
		}
	}
	bad := []struct{ raw, wantMsg string }{
		{"", "required"},
		{"users/alice/", "must start with kb://"},
		{"http://users/alice/", "must start with kb://"},
		{"KB://users/alice/", "must start with kb://"},
		{"kb://other/x", "must look like"},
		{"kb://users/al ice/x", "not a valid user name"},
		{"kb://me//x", "empty path segment"},
		{"kb://me/a//", "empty path segment"},
		{"kb://me/./x", "not allowed"},
		{"kb://me/../bob/x", "not allowed"},
		{"kb://me/a/..", "not allowed"},
		{"kb://me/a%2Fb", "encoded separator"},
		{"kb://me/a%2fb", "encoded separator"},
		{"kb://me/a%5Cb", "encoded separator"},
		{"kb://me/%2E%2E/x", "encoded separator"},
		{"kb://me/a\\b", "backslashes"},
		{"kb://me/a\x00b", "control characters"},
		{"kb://me/a\nb", "control characters"},
		{"kb://me/a\u0085b", "control characters"},
		{"kb://me/" + long, "longer than 255 bytes"},
		{"kb://me/\xff", "UTF-8"},
		{"kb://me/" + strings.Repeat("a/", MaxURIBytes), "longer than"},
	}
	for _, tc := range bad {
		_, err := ParseURI(tc.raw, "alice")
		e, ok := apierr.As(err)
		if !ok || e.Code.String() != "invalid_uri" || e.Status != 400 {
			t.Errorf("%q: want invalid_uri, got %v", tc.raw, err)
			continue
		}
		if !strings.Contains(e.Message, tc.wantMsg) {
			t.Errorf("%q: message %q does not mention %q", tc.raw, e.Message, tc.wantMsg)
		}
	}
}

func TestURIParentChild(t *testing.T) {
	t.Parallel()
	u, _ := ParseURI("kb://me/a/b/c.md", "alice")
	if got := u.Parent().String(); got != "kb://users/alice/a/b/" {
		t.Fatalf("parent %q", got)
	}
	if got := u.Parent().Parent().Parent().String(); got != "kb://users/alice/" {
		t.Fatalf("root parent %q", got)
	}
	if u.Name() != "c.md" {
		t.Fatalf("name %q", u.Name())
	}
	if got := u.Parent().Child("d", true).String(); got != "kb://users/alice/a/b/d/" {
		t.Fatalf("child %q", got)
	}
}
