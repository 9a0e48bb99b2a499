package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// ExternalIdentity is a person as an identity provider vouches for them.
type ExternalIdentity struct {
	Provider      string // the provider's id in the config
	Subject       string // its stable id for the person
	Username      string // the name it suggests for a new account
	Email         string
	EmailVerified bool
	Groups        []string // the values of its groups claim
	// GroupsUnknown says the provider left its groups out (Entra's
	// overage: too many to send): memberships and role stay as they are
	// rather than being taken away.
	GroupsUnknown bool
}

// ExternalPolicy is what a provider's configuration lets its sign-ins do.
type ExternalPolicy struct {
	CreateAccounts bool
	LinkByEmail    bool
	// Groups maps a claim value to one of our groups; those groups, and
	// only those, follow the provider at every sign-in.
	Groups      map[string]string
	AdminValues []string // claim values that make an admin; empty leaves the role alone
}

// GroupChange is a membership a sign-in added or removed.
type GroupChange struct {
	GroupID int64  `json:"group_id"`
	Group   string `json:"group"`
	Added   bool   `json:"added"`
}

// ExternalSignIn is an account a provider signed in, and what the sign-in
// changed in it.
type ExternalSignIn struct {
	User        store.User
	Created     bool
	Linked      bool // an existing account was linked by its address
	Groups      []GroupChange
	RoleChanged bool
	OldRole     string // the role before, when RoleChanged
}

// SignInExternal finds or makes the account of a provider's subject, then
// brings its managed groups and role in line with the provider's claims.
func (s *Service) SignInExternal(ctx context.Context, id ExternalIdentity, pol ExternalPolicy) (ExternalSignIn, error) {
	if id.Provider == "" || id.Subject == "" {
		return ExternalSignIn{}, apierr.New(502, apierr.CodeSSOProvider, "the identity provider named no subject")
	}
	out, err := s.externalAccount(ctx, id, pol)
	if err != nil {
		return ExternalSignIn{}, err
	}
	if out.User.Disabled {
		return ExternalSignIn{}, apierr.Forbidden(apierr.CodeAccountDisabled, "the account %s is disabled; an administrator can enable it", out.User.Username)
	}
	if id.GroupsUnknown {
		return out, nil
	}
	if out.Groups, err = s.syncGroups(ctx, out.User.ID, id.Groups, pol.Groups); err != nil {
		return ExternalSignIn{}, err
	}
	if len(pol.AdminValues) > 0 {
		role := store.RoleUser
		if slices.ContainsFunc(id.Groups, func(v string) bool { return slices.Contains(pol.AdminValues, v) }) {
			role = store.RoleAdmin
		}
		if role != out.User.Role {
			out.OldRole = out.User.Role
			if out.User, err = s.update(ctx, out.User.ID, store.UserUpdate{Role: &role}); err != nil {
				return ExternalSignIn{}, err
			}
			out.RoleChanged = true
		}
	}
	return out, nil
}

// externalAccount resolves the subject: its link, else the account with the
// same verified address (when linking is allowed), else a new account.
func (s *Service) externalAccount(ctx context.Context, id ExternalIdentity, pol ExternalPolicy) (ExternalSignIn, error) {
	now := s.now().UTC()
	link, err := s.st.ExternalIdentity(ctx, id.Provider, id.Subject)
	if err == nil {
		if err := s.st.TouchExternalIdentity(ctx, link.ID, now, id.Email); err != nil {
			return ExternalSignIn{}, apierr.Internal("sign-in: record identity", err)
		}
		u, err := s.st.UserByID(ctx, link.UserID)
		if err != nil {
			return ExternalSignIn{}, apierr.Internal("sign-in: read linked account", err)
		}
		return ExternalSignIn{User: u}, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return ExternalSignIn{}, apierr.Internal("sign-in: read identity", err)
	}
	var out ExternalSignIn
	if id.Email != "" {
		u, err := s.st.UserByEmail(ctx, strings.ToLower(id.Email))
		switch {
		case err == nil && pol.LinkByEmail && id.EmailVerified:
			out = ExternalSignIn{User: u, Linked: true}
		case err == nil || errors.Is(err, store.ErrConflict):
			return ExternalSignIn{}, apierr.Conflict(apierr.CodeSSOEmailTaken,
				"an account with the address %s exists; an administrator can allow linking (link_by_email) or sign in with a password", id.Email)
		case !errors.Is(err, store.ErrNotFound):
			return ExternalSignIn{}, apierr.Internal("sign-in: find account by address", err)
		}
	}
	if out.User.ID == 0 {
		if !pol.CreateAccounts {
			return ExternalSignIn{}, apierr.Forbidden(apierr.CodeSSONoAccount,
				"no account belongs to this identity, and accounts are made by an administrator on this server")
		}
		u, err := s.createExternalUser(ctx, id)
		if err != nil {
			return ExternalSignIn{}, err
		}
		out = ExternalSignIn{User: u, Created: true}
	}
	link = store.ExternalIdentity{Provider: id.Provider, Subject: id.Subject, UserID: out.User.ID,
		Email: id.Email, CreatedAt: now, LastLoginAt: now}
	if err := s.st.LinkExternalIdentity(ctx, &link); err != nil {
		if errors.Is(err, store.ErrConflict) { // another replica's sign-in linked it first
			return s.externalAccount(ctx, id, pol)
		}
		return ExternalSignIn{}, apierr.Internal("sign-in: link identity", err)
	}
	return out, nil
}

// createExternalUser makes a password-less account named after the
// provider's suggestion, numbered when the name is taken.
func (s *Service) createExternalUser(ctx context.Context, id ExternalIdentity) (store.User, error) {
	base := usernameFrom(id)
	email := ""
	if id.EmailVerified {
		email = strings.ToLower(id.Email)
	}
	for n := 1; n < 100; n++ {
		name := base
		if n > 1 {
			suffix := fmt.Sprintf("-%d", n)
			name = base[:min(len(base), 64-len(suffix))] + suffix
		}
		u := store.User{Username: name, Role: store.RoleUser, Email: email}
		err := s.st.CreateUser(ctx, &u)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return store.User{}, apierr.Internal("sign-in: create account", err)
		}
		if s.seeder != nil {
			if err := s.seeder.SeedSample(ctx, kb.Caller{ID: u.ID, Username: u.Username}); err != nil {
				return u, apierr.Internal("seed sample for "+u.Username, err)
			}
		}
		return u, nil
	}
	return store.User{}, apierr.Conflict(apierr.CodeUsernameTaken, "every name like %s is taken", base)
}

// usernameFrom turns the provider's suggestion into one of our user names:
// lower case, the part before an @, letters, digits, '.', '_' and '-' only.
func usernameFrom(id ExternalIdentity) string {
	for _, cand := range []string{id.Username, id.Email} {
		cand, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(cand)), "@")
		var b strings.Builder
		for _, r := range cand {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
				b.WriteRune(r)
			}
		}
		name := strings.TrimLeft(b.String(), "._-")
		if len(name) > 64 {
			name = name[:64]
		}
		if kb.ValidUsername(name) {
			return name
		}
	}
	sum := sha256.Sum256([]byte(id.Provider + "\x00" + id.Subject))
	return "user-" + hex.EncodeToString(sum[:4])
}

// syncGroups makes the account a member of exactly the mapped groups its
// claim values name, among the groups the mapping manages.
func (s *Service) syncGroups(ctx context.Context, userID int64, values []string, mapping map[string]string) ([]GroupChange, error) {
	if len(mapping) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, v := range values {
		if g, ok := mapping[v]; ok {
			want[g] = true
		}
	}
	current, err := s.st.GroupsOf(ctx, userID)
	if err != nil {
		return nil, apierr.Internal("sign-in: read groups", err)
	}
	has := map[string]int64{}
	for _, g := range current {
		has[g.Name] = g.ID
	}
	managed := map[string]bool{}
	for _, g := range mapping {
		managed[g] = true
	}
	var changes []GroupChange
	for _, name := range sortedKeys(managed) {
		gid, member := has[name]
		switch {
		case want[name] && !member:
			g, err := s.managedGroup(ctx, name)
			if err != nil {
				return nil, err
			}
			if err := s.st.AddMember(ctx, g.ID, userID); err != nil && !errors.Is(err, store.ErrConflict) {
				return nil, apierr.Internal("sign-in: add to group", err)
			}
			changes = append(changes, GroupChange{GroupID: g.ID, Group: name, Added: true})
		case !want[name] && member:
			if err := s.st.RemoveMember(ctx, gid, userID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, apierr.Internal("sign-in: remove from group", err)
			}
			changes = append(changes, GroupChange{GroupID: gid, Group: name})
		}
	}
	return changes, nil
}

// managedGroup finds a mapped group, making it at its first member.
func (s *Service) managedGroup(ctx context.Context, name string) (store.Group, error) {
	g, err := s.st.GroupByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		g = store.Group{Name: name}
		if err = s.st.CreateGroup(ctx, &g); errors.Is(err, store.ErrConflict) {
			g, err = s.st.GroupByName(ctx, name)
		}
	}
	if err != nil {
		return store.Group{}, apierr.Internal("sign-in: group "+name, err)
	}
	return g, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
