package audit

import "context"

// Actor is who is acting in a request and from where. A door puts it in
// the request's context once (the address before authentication, the
// account after), so every Record below it knows the caller.
type Actor struct {
	UserID     int64
	Username   string
	TokenID    int64
	Provider   string
	ClientAddr string // after trusted proxies
}

type actorKey struct{}

// WithActor returns ctx carrying a.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor ctx carries (the zero Actor if none).
func ActorFrom(ctx context.Context) Actor {
	a, _ := ctx.Value(actorKey{}).(Actor)
	return a
}

// WithClientAddr returns ctx whose actor has connected from addr.
func WithClientAddr(ctx context.Context, addr string) context.Context {
	a := ActorFrom(ctx)
	a.ClientAddr = addr
	return WithActor(ctx, a)
}

// WithAccount returns ctx whose actor is the account userID, named
// username, acting with API token tokenID (0 for a session) or signed in
// through the identity provider provider ("" for none), still from the
// address ctx carries. Doors call it once the credential is checked; a
// sign-in calls it once it knows the account, so every event it records
// after (group changes from claims, the sign-in itself) names them.
func WithAccount(ctx context.Context, userID int64, username string, tokenID int64, provider string) context.Context {
	return WithActor(ctx, Actor{UserID: userID, Username: username, TokenID: tokenID, Provider: provider,
		ClientAddr: ActorFrom(ctx).ClientAddr})
}

// fill completes e from the actor: the identity when e names none, the
// address when e has none.
func (a Actor) fill(e *Event) {
	if e.UserID == 0 && e.Username == "" {
		e.UserID, e.Username, e.TokenID = a.UserID, a.Username, a.TokenID
		if e.Provider == "" {
			e.Provider = a.Provider
		}
	}
	if e.ClientAddr == "" {
		e.ClientAddr = a.ClientAddr
	}
}
