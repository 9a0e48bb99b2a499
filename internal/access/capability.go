package access

import (
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// Capability is what an operation needs of the credential itself, apart
// from the caller's role on a node: a session or an unscoped token may do
// whatever its user may; a read-only token changes nothing; a scoped token
// (one folder) never manages the account. Roles answer "may this user touch
// this node", capabilities "may this credential do this kind of thing".
type Capability uint8

const (
	// Undeclared is the zero value: an operation that declares nothing is
	// treated as account-wide, so a forgotten declaration fails closed.
	Undeclared Capability = iota
	// Public needs no credential at all.
	Public
	// FolderRead reads or asks about what is in the caller's view; every
	// credential may.
	FolderRead
	// FolderWrite changes something; a read-only token is refused 403
	// read_only, a read-write scoped token may and the tree keeps its
	// change inside the scope.
	FolderWrite
	// Account manages what belongs to the whole account (tokens, password,
	// shares, skills, groups, administration); every scoped token is
	// refused 403 scoped_token.
	Account
)

// Allow is the one rule for tokens. what ends the read-only refusal's
// message ("this API token is read-only: <what>"), so each door can say
// what was refused; "" says it generally.
func Allow(c kb.Caller, need Capability, what string) error {
	switch need {
	case Public, FolderRead:
		return nil
	case FolderWrite:
		if !c.ReadOnly {
			return nil
		}
		if what == "" {
			what = "it can read and ask, not change anything"
		}
		return apierr.Forbidden(apierr.CodeReadOnly, "this API token is read-only: %s", what)
	default:
		if !c.Scoped() {
			return nil
		}
		return apierr.Forbidden(apierr.CodeScopedToken, "this API token is scoped to one folder and cannot manage the account (tokens, password, shares, skills, groups); sign in instead")
	}
}
