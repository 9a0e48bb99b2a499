package dav_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/dav"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// maxUpload is the test server's per-file limit.
const maxUpload = 8 << 20

type env struct {
	t     testing.TB
	url   string
	st    *store.Store
	tree  *knowledge.Tree
	alice kb.Caller
	// aliceKey is alice's API token; notesRO a read-only one scoped to
	// kb://me/notes/, notesRW a writable one scoped there; bobKey bob's.
	aliceKey, notesRO, notesRW, bobKey string
	session                            string // alice's session token, for REST
	svc                                *auth.Service
}

// newEnv runs the real API with /dav mounted as cmd/server mounts it, on
// a real store of the dialect, with two users and the sample tree each.
func newEnv(t testing.TB, dialect string) *env {
	t.Helper()
	stack := apptest.NewStack(t, dialect, apptest.MaxUpload(maxUpload))
	e := &env{t: t, st: stack.Store, tree: stack.Tree, svc: stack.Auth}
	ctx := context.Background()
	alice := stack.NewUser(t, "alice", store.RoleUser)
	e.aliceKey, e.session = stack.APIToken(t, alice.User.ID, "dav"), alice.Token
	e.alice = kb.Caller{ID: alice.User.ID, Username: "alice"}
	ro, rw := true, false
	for _, sc := range []struct {
		key *string
		ro  *bool
	}{{&e.notesRO, &ro}, {&e.notesRW, &rw}} {
		scoped, err := stack.Auth.CreateScopedToken(ctx, alice.User, "notes", 0, auth.TokenScope{URI: "kb://me/notes/", ReadOnly: sc.ro})
		if err != nil {
			t.Fatal(err)
		}
		*sc.key = scoped.Secret
	}
	bob := stack.NewUser(t, "bob", store.RoleUser)
	e.bobKey = stack.APIToken(t, bob.User.ID, "dav")
	e.url = startReplica(e)
	return e
}

// startReplica serves the API with /dav mounted as cmd/server mounts it
// and returns its URL; two of them on one store are two replicas.
func startReplica(e *env) string {
	door := dav.New(dav.Deps{Tree: e.tree, Auth: e.svc, Store: e.st, MaxUpload: maxUpload})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Store: e.st, Auth: e.svc, Tree: e.tree,
		Mounts: []httpapi.Mount{{Path: dav.Path, Methods: dav.Methods, Streaming: true, Handler: door}}}))
	e.t.Cleanup(srv.Close)
	return srv.URL
}

// req is one WebDAV request as alice (user "alice", her API token) unless
// the headers say otherwise.
type req struct {
	method, path string
	body         io.Reader
	hdr          map[string]string
	user, key    string // Basic credentials; key "" means alice's
	noAuth       bool
}

func (e *env) do(r req) (*http.Response, []byte) {
	e.t.Helper()
	hr, err := http.NewRequest(r.method, e.url+r.path, r.body)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range r.hdr {
		hr.Header.Set(k, v)
	}
	if !r.noAuth {
		user, key := r.user, r.key
		if user == "" {
			user = "alice"
		}
		if key == "" {
			key = e.aliceKey
		}
		hr.SetBasicAuth(user, key)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func (e *env) status(r req) int {
	e.t.Helper()
	res, _ := e.do(r)
	return res.StatusCode
}

// put PUTs body at path as alice and requires want.
func (e *env) put(path, body string, want int) *http.Response {
	e.t.Helper()
	res, b := e.do(req{method: "PUT", path: path, body: strings.NewReader(body)})
	if res.StatusCode != want {
		e.t.Fatalf("PUT %s: %d %s (want %d)", path, res.StatusCode, b, want)
	}
	return res
}

func (e *env) rest(method, path string, body io.Reader, contentType string) (int, []byte) {
	e.t.Helper()
	c := apptest.Client{URL: e.url}
	hr := c.Request(e.t, context.Background(), method, "/api/v1"+path, e.session, body)
	hr.Header.Del("Content-Type")
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	r := c.Send(e.t, hr)
	return r.Status, r.Body
}
