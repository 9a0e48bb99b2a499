package auth

import (
	"context"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestExternalPolicy: without just-in-time accounts only an account an
// operator made with the person's address (and linking allowed) lets them
// in; an unverified address links nothing; admin_values set the role at
// every sign-in, both ways.
func TestExternalPolicy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		s, _ := newService(t, dialect, time.Hour, 24*time.Hour)
		ctx := context.Background()
		closed := ExternalPolicy{LinkByEmail: true, AdminValues: []string{"kb-admins"}}
		carol := ExternalIdentity{Provider: "corp", Subject: "s-carol", Username: "carol", Email: "Carol@Example.com", EmailVerified: true, Groups: []string{"kb-admins"}}

		if _, err := s.SignInExternal(ctx, carol, closed); code(err) != "sso_no_account" {
			t.Fatalf("no account, no jit: %v", err)
		}
		pre := store.User{Username: "c.jones", Role: store.RoleUser, Email: "carol@example.com"}
		if err := s.st.CreateUser(ctx, &pre); err != nil {
			t.Fatal(err)
		}
		unverified := carol
		unverified.EmailVerified = false
		if _, err := s.SignInExternal(ctx, unverified, closed); code(err) != "sso_email_taken" {
			t.Fatalf("an unverified address linked an account: %v", err)
		}
		in, err := s.SignInExternal(ctx, carol, closed)
		if err != nil || !in.Linked || in.User.ID != pre.ID || in.User.Role != store.RoleAdmin || !in.RoleChanged {
			t.Fatalf("pre-created account: %+v %v", in, err)
		}
		carol.Groups = nil
		if in, err = s.SignInExternal(ctx, carol, closed); err != nil || in.User.Role != store.RoleUser || in.Linked {
			t.Fatalf("the claim is gone, the role must follow: %+v %v", in, err)
		}
	})
}

// TestUsernameFromProvider: the suggestion becomes one of our names, or a
// stable one made from the subject when nothing usable is offered.
func TestUsernameFromProvider(t *testing.T) {
	for _, tc := range []struct {
		id   ExternalIdentity
		want string
	}{
		{ExternalIdentity{Username: "Alice.Smith@corp.example"}, "alice.smith"},
		{ExternalIdentity{Username: "李雷", Email: "li.lei@corp.example"}, "li.lei"},
		{ExternalIdentity{Username: "__x y__"}, "xy__"},
		{ExternalIdentity{Provider: "corp", Subject: "42"}, "user-"}, // and 8 hex digits of the subject
	} {
		got := usernameFrom(tc.id)
		if tc.want == "user-" {
			if len(got) != len("user-")+8 || got[:5] != "user-" || got != usernameFrom(tc.id) {
				t.Errorf("%+v: %q", tc.id, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestUnknownGroupsKeepMemberships: a sign-in whose provider left the
// groups out (overage) keeps the managed memberships; one that sends an
// empty list takes them away.
func TestUnknownGroupsKeepMemberships(t *testing.T) {
	s, _ := newService(t, "sqlite", time.Hour, 24*time.Hour)
	ctx := context.Background()
	pol := ExternalPolicy{CreateAccounts: true, Groups: map[string]string{"eng": "engineering"}}
	id := ExternalIdentity{Provider: "entra", Subject: "oid-1", Username: "erin", Groups: []string{"eng"}}
	groups := func() int {
		in, err := s.SignInExternal(ctx, id, pol)
		if err != nil {
			t.Fatal(err)
		}
		gs, _ := s.GroupsOf(ctx, in.User.ID)
		return len(gs)
	}
	if n := groups(); n != 1 {
		t.Fatalf("first sign-in: %d groups", n)
	}
	id.Groups, id.GroupsUnknown = nil, true
	if n := groups(); n != 1 {
		t.Fatalf("overage took the membership away: %d groups", n)
	}
	id.GroupsUnknown = false
	if n := groups(); n != 0 {
		t.Fatalf("an empty list kept the membership: %d groups", n)
	}
}
