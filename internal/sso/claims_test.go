package sso

import (
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/config"
)

// TestIdentityReadsGroupsHoweverSpelt: a dotted path, a claim whose name
// holds dots, one space-separated string; and a claim left out for
// overage is unknown, not empty.
func TestIdentityReadsGroupsHoweverSpelt(t *testing.T) {
	for _, tc := range []struct {
		claim  string
		claims map[string]any
		want   string
		unsure bool
	}{
		{"realm_access.roles", map[string]any{"realm_access": map[string]any{"roles": []any{"kb", "x", 3}}}, "kb,x", false},
		{"https://kb.example/groups", map[string]any{"https://kb.example/groups": []any{"eng"}}, "eng", false},
		{"groups", map[string]any{"groups": "eng staff"}, "eng,staff", false},
		{"groups", map[string]any{}, "", false},
		{"groups", map[string]any{"_claim_names": map[string]any{"groups": "src1"}}, "", true},
	} {
		id := identity(config.OIDCProvider{ID: "p", GroupsClaim: tc.claim}, tc.claims)
		if strings.Join(id.Groups, ",") != tc.want || id.GroupsUnknown != tc.unsure {
			t.Errorf("%s in %v: %v unknown=%v", tc.claim, tc.claims, id.Groups, id.GroupsUnknown)
		}
	}
}
