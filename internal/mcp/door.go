package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/observe"
)

// door checks what the SDK does not know about: our credentials, the
// Origin, the per-user limit, and the headers every answer carries.
type door struct {
	auth     *auth.Service
	mcp      http.Handler
	inflight *inflight
}

type principalKey struct{}

// extra keys of the SDK's TokenInfo, the one per-request value the SDK
// hands to tool and resource handlers.
const (
	extraCaller  = "knowspace.caller"
	extraRequest = "knowspace.request"
)

func (d *door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Proxies (nginx honours this header) must pass events on at once.
	h.Set("X-Accel-Buffering", "no")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Vary", "Authorization, Origin")
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r) {
		writeError(w, apierr.Forbidden(apierr.CodeForeignOrigin, "requests from the origin %s are refused; /mcp answers its own origin and non-browser clients only", kb.Clip(o, 100)))
		return
	}
	header := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(header, " ")
	if header != "" && !strings.EqualFold(scheme, "Bearer") {
		writeError(w, apierr.Unauthorized(apierr.CodeInvalidToken, "use Authorization: Bearer <API token>"))
		return
	}
	p, err := d.auth.AuthenticatePrincipal(r.Context(), strings.TrimSpace(token))
	if err != nil {
		writeError(w, err)
		return
	}
	observe.NoteUser(r.Context(), p.User.ID)
	release, err := d.inflight.acquire(p.User.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	ctx := context.WithValue(r.Context(), principalKey{}, p)
	d.mcp.ServeHTTP(w, r.WithContext(ctx))
}

// withTokenInfo hands the principal to the SDK, which passes it on to the
// handlers as TokenInfo; the door has already checked the credential.
func withTokenInfo(next http.Handler) http.Handler {
	verify := func(_ context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
		p, ok := r.Context().Value(principalKey{}).(auth.Principal)
		if !ok {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{
			UserID:     strconv.FormatInt(p.User.ID, 10),
			Expiration: time.Now().Add(time.Hour),
			Extra:      map[string]any{extraCaller: p.Caller(), extraRequest: r.Context()},
		}, nil
	}
	return sdkauth.RequireBearerToken(verify, nil)(next)
}

// callerOf is the caller of one MCP request, and a context that also ends
// when the client closes the HTTP request carrying it: the SDK cancels only
// calls of the newest revision that way, and a stateless server never sees
// an older client's notifications/cancelled for a call of another request.
func callerOf(ctx context.Context, extra *mcp.RequestExtra) (kb.Caller, context.Context, context.CancelFunc, bool) {
	if extra == nil || extra.TokenInfo == nil {
		return kb.Caller{}, ctx, func() {}, false
	}
	c, ok := extra.TokenInfo.Extra[extraCaller].(kb.Caller)
	if !ok {
		return kb.Caller{}, ctx, func() {}, false
	}
	ctx, cancel := context.WithCancel(ctx)
	if rc, ok := extra.TokenInfo.Extra[extraRequest].(context.Context); ok {
		stop := context.AfterFunc(rc, cancel)
		return c, ctx, func() { stop(); cancel() }, true
	}
	return c, ctx, cancel, true
}

// sameOrigin tells whether the browser origin o is this server's own, as
// the request addressed it.
func sameOrigin(o string, r *http.Request) bool {
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// writeError answers in the API's error shape; a 401 names the scheme, and
// no OAuth metadata: the server takes static tokens only.
func writeError(w http.ResponseWriter, err error) {
	e := apierr.From(err)
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="knowspace", error="invalid_token"`)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(errorBody(e))
}

func errorBody(e *apierr.Error) map[string]any {
	obj := map[string]any{"code": e.Code, "message": e.Message}
	for k, v := range e.Details {
		if k != "code" && k != "message" {
			obj[k] = v
		}
	}
	return map[string]any{"error": obj}
}
