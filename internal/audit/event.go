// Package audit records who did what, when, from where and with what
// result: an append-only log of security-relevant actions, kept in the
// store and, when the server logs JSON, written as one log line each.
// Every door and the auth service record through one Recorder; an event
// names its target and small settings, never a file's or a message's
// content or a secret.
package audit

import (
	"encoding/json"
	"strconv"
	"time"
)

// Action is what happened; the set is closed, so a filter or a reader
// can rely on every value.
type Action string

// The actions the log records.
const (
	SignIn         Action = "signin"
	SignInFailed   Action = "signin_failed"
	Logout         Action = "logout"
	LogoutAll      Action = "logout_all"
	PasswordChange Action = "password_change"
	TokenCreate    Action = "token_create"
	TokenRevoke    Action = "token_revoke"
	// TokenUse is recorded for a token's first use after an hour unused,
	// so a token's owner sees when it was used without a row per request.
	TokenUse Action = "token_use"

	ShareGrant  Action = "share_grant"
	ShareChange Action = "share_change"
	ShareRevoke Action = "share_revoke"

	GroupCreate Action = "group_create"
	GroupRename Action = "group_rename"
	GroupDelete Action = "group_delete"
	// GroupMemberAdd and GroupMemberRemove carry Source: SourceAdmin for a
	// change by hand, ClaimsSource(provider) for one from a sign-in.
	GroupMemberAdd    Action = "group_member_add"
	GroupMemberRemove Action = "group_member_remove"

	UserCreate Action = "user_create"
	// UserUpdate is an admin's change to an account: role, disabled, or a
	// new password (Before and After say which, never the password).
	UserUpdate Action = "user_update"

	Delete             Action = "delete"
	Purge              Action = "purge"
	TrashRestore       Action = "trash_restore"
	SkillChange        Action = "skill_change"
	ModelChange        Action = "model_change"
	BudgetChange       Action = "budget_change"
	ConversationExport Action = "conversation_export"
)

var actions = []Action{SignIn, SignInFailed, Logout, LogoutAll, PasswordChange, TokenCreate, TokenRevoke, TokenUse,
	ShareGrant, ShareChange, ShareRevoke, GroupCreate, GroupRename, GroupDelete, GroupMemberAdd, GroupMemberRemove,
	UserCreate, UserUpdate, Delete, Purge, TrashRestore, SkillChange, ModelChange, BudgetChange, ConversationExport}

// Actions lists every action, in a stable order.
func Actions() []Action { return append([]Action(nil), actions...) }

// Known tells whether a is one of Actions.
func Known(a Action) bool {
	for _, k := range actions {
		if k == a {
			return true
		}
	}
	return false
}

// OwnActions are the events a user reads about their own account in
// Settings: sign-ins and the uses of their credentials.
var OwnActions = []Action{SignIn, SignInFailed, Logout, LogoutAll, PasswordChange, TokenCreate, TokenRevoke, TokenUse}

// Result is how the action ended.
type Result string

// Results.
const (
	OK      Result = "ok"
	Refused Result = "refused" // the server said no (Code says why)
	Failed  Result = "failed"  // the server could not do it
)

// Sources of a change, where the actor alone does not say it.
const (
	// SourceAdmin marks a group membership changed by hand.
	SourceAdmin = "admin"
	// SourceCLI marks a change the operator made with a knowspace command
	// on the server's machine, where there is no account or address.
	SourceCLI = "cli"
)

// ClaimsSource marks a group membership set from a provider's claims at
// sign-in.
func ClaimsSource(provider string) string { return "claims:" + provider }

// Event is one entry of the log. Zero identity and ClientAddr fields are
// filled from the Actor of the context by Record.
type Event struct {
	ID int64     `json:"id"`
	At time.Time `json:"at"`
	// Who: the account (0 and a name for a failed sign-in of an unknown
	// name), the API token used (0 for a session), and the identity
	// provider of an SSO sign-in ("" for a password or a token).
	UserID   int64  `json:"user_id,omitempty"`
	Username string `json:"username,omitempty"`
	TokenID  int64  `json:"token_id,omitempty"`
	Provider string `json:"provider,omitempty"`
	Action   Action `json:"action"`
	// Target names what was acted on: a kb:// URI, or kind:id
	// ("user:7", "token:3", "group:2", "conversation:9", "skill:4").
	Target string `json:"target,omitempty"`
	// Source is where a change came from when the actor does not say it:
	// SourceAdmin, ClaimsSource(provider) or SourceCLI.
	Source string `json:"source,omitempty"`
	// Before and After are small JSON objects of settings (a share's
	// grantee and role, a user's role and flags); nil when there is none.
	Before     json.RawMessage `json:"before,omitempty"`
	After      json.RawMessage `json:"after,omitempty"`
	ClientAddr string          `json:"client_addr,omitempty"`
	Result     Result          `json:"result"`
	// Code is the error code of a refused or failed action.
	Code string `json:"code,omitempty"`
}

// JSON encodes v for Before or After; values are maps and scalars the
// caller builds, so an encoding failure is a programming error.
func JSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("audit: encode settings: " + err.Error())
	}
	return b
}

// Membership is the event of user joining (GroupMemberAdd) or leaving
// (GroupMemberRemove) group groupID, named group; source is SourceAdmin
// or ClaimsSource(provider). Who acted comes from the context: the admin,
// or the user whose sign-in applied the claims.
func Membership(a Action, groupID int64, group, user, source string) Event {
	e := Event{Action: a, Target: "group:" + strconv.FormatInt(groupID, 10), Source: source}
	set := JSON(map[string]string{"group": group, "user": user})
	if a == GroupMemberRemove {
		e.Before = set
	} else {
		e.After = set
	}
	return e
}
