package sso

import (
	"strings"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/config"
)

func identity(cfg config.OIDCProvider, claims map[string]any) auth.ExternalIdentity {
	id := auth.ExternalIdentity{Provider: cfg.ID, Subject: str(claims["sub"]), Email: strings.ToLower(str(claims["email"]))}
	id.EmailVerified, _ = claims["email_verified"].(bool)
	nameClaim := cfg.UsernameClaim
	if nameClaim == "" {
		nameClaim = "preferred_username"
	}
	id.Username = str(lookup(claims, nameClaim))
	if cfg.GroupsClaim != "" {
		v := lookup(claims, cfg.GroupsClaim)
		id.Groups = values(v)
		id.GroupsUnknown = v == nil && overage(claims, cfg.GroupsClaim)
	}
	return id
}

// overage tells whether the provider said the claim lives elsewhere
// (_claim_names, as Entra ID does past 200 groups) instead of sending it.
func overage(claims map[string]any, name string) bool {
	names, _ := claims["_claim_names"].(map[string]any)
	_, ok := names[name]
	return ok
}

func policy(cfg config.OIDCProvider) auth.ExternalPolicy {
	return auth.ExternalPolicy{CreateAccounts: cfg.CreatesAccounts(), LinkByEmail: cfg.LinkByEmail,
		Groups: cfg.Groups, AdminValues: cfg.AdminValues}
}

// lookup follows a dotted path (realm_access.roles) into nested claims; a
// claim whose own name holds dots (Auth0's https://example.com/groups) is
// found by its whole name first.
func lookup(claims map[string]any, path string) any {
	if v, ok := claims[path]; ok {
		return v
	}
	var cur any = claims
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

// values reads a groups claim as a list of strings, however it is spelt:
// a JSON array, or one string (space- or comma-separated).
func values(v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	case string:
		out = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
