package tools

import "testing"

func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{counted(1, "hit"), "1 hit"},
		{counted(0, "hit"), "0 hits"},
		{counted(int64(2), "matching file"), "2 matching files"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
