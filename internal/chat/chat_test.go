package chat

import (
	"strings"
	"testing"
)

func TestAutoTitle(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, tc := range []struct{ in, want string }{
		{"  What is in the plan?  ", "What is in the plan?"},
		{"first line\nsecond line", "first line"},
		{long, strings.TrimSpace(long[:80]) + "…"},
		{strings.Repeat("字", 100), strings.Repeat("字", 80) + "…"},
	} {
		if got := AutoTitle(tc.in); got != tc.want {
			t.Errorf("AutoTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExportName(t *testing.T) {
	for in, want := range map[string]string{
		"Budget talk":        "budget-talk.md",
		"../../etc/passwd":   "etc-passwd.md",
		"a: b? \"c\" <d>|e*": "a-b-c-d-e.md",
		"...":                "conversation.md",
		"会议 纪要":              "会议-纪要.md",
	} {
		if got := exportName(in); got != want {
			t.Errorf("exportName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCursorRoundTripAndRefusal(t *testing.T) {
	c := encodeCursor(1733000000000000, 42)
	if ts, id, err := decodeCursor(c); err != nil || ts != 1733000000000000 || id != 42 {
		t.Fatalf("round trip %d %d %v", ts, id, err)
	}
	for _, bad := range []string{"!!", encodeCursor(1, 0), "MTIz"} {
		if _, _, err := decodeCursor(bad); err == nil || !strings.Contains(err.Error(), "invalid_cursor") {
			t.Errorf("cursor %q: %v", bad, err)
		}
	}
}
