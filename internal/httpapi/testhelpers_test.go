package httpapi_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/scratch"
	"github.com/knowspace/knowspace/internal/store"
)

// Fixed test configuration.
const (
	testSecret      = apptest.Secret
	testUploadLimit = apptest.UploadLimit
	testSessionTTL  = apptest.SessionTTL
	testSessionMax  = apptest.SessionMaxTTL
	adminPassword   = "admin-password-1"
	userPassword    = "user-password-1"
)

// env is the real stack (store, blobs, tree, auth, Echo) served over HTTP:
// the one env of this package's external tests, built on apptest.
type env struct {
	t       testing.TB
	URL     string
	DataDir string
	Store   *store.Store
	Tree    *knowledge.Tree
	Index   *search.Index
	Auth    *auth.Service
	Admin   string // session token of the first admin

	served atomic.Int64 // requests whose handler has returned
	// bodyRead, when set before a request, counts the body bytes the server read.
	bodyRead *atomic.Int64
	client   *http.Client // checks every exchange against the OpenAPI document
	skip     atomic.Bool  // the next request is invalid on purpose (invalid)
}

// newEnv builds the stack on a fresh store of the dialect, creates the first
// admin (with the sample tree) and signs it in.
func newEnv(t *testing.T, dialect string) *env {
	t.Helper()
	return newEnvWith(t, dialect, httpapi.Deps{})
}

// newEnvWith is newEnv with the limits of d (Timeouts, MaxUploadRequest)
// applied to the handler and the http.Server alike.
func newEnvWith(t *testing.T, dialect string, d httpapi.Deps) *env {
	t.Helper()
	return newEnvOn(t, apptest.NewStack(t, dialect), d)
}

// newEnvOn is newEnvWith on a stack the test built.
func newEnvOn(t testing.TB, stack *apptest.Stack, d httpapi.Deps) *env {
	t.Helper()
	return newEnvListening(t, stack, d, nil)
}

// newEnvListening is newEnvOn served on ln (nil: a new port), for deps that
// need the server's address before it starts (single sign-on's redirect).
func newEnvListening(t testing.TB, stack *apptest.Stack, d httpapi.Deps, ln net.Listener) *env {
	t.Helper()
	st, dir, tree, svc := stack.Store, stack.Dir, stack.Tree, stack.Auth
	if _, err := svc.EnsureAdmin(context.Background(), adminPassword); err != nil {
		t.Fatalf("ensure admin: %v", err)
	}
	e := &env{t: t, DataDir: dir, Store: st, Tree: tree, Index: stack.Index, Auth: svc, client: &http.Client{Timeout: 30 * time.Second, Transport: httpapi.CheckingTransport{T: t}}}
	d.Store, d.Auth, d.Tree = st, svc, tree
	h := httpapi.New(d)
	srv := httptest.NewUnstartedServer(nil)
	if ln != nil {
		srv.Listener.Close()
		srv.Listener = ln
	}
	srv.Config = httpapi.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer e.served.Add(1)
		if e.bodyRead != nil && r.Body != nil {
			r.Body = countingBody{r.Body, e.bodyRead}
		}
		h.ServeHTTP(w, r)
	}), d.Timeouts)
	srv.Start()
	t.Cleanup(srv.Close)
	e.URL = srv.URL
	e.Admin = e.login("admin", adminPassword)
	return e
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// resp is a finished HTTP exchange.
type resp = apptest.Response

type errorJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// api is the client every request of these tests goes through.
func (e *env) api() apptest.Client { return apptest.Client{URL: e.URL, HTTP: e.client} }

// do sends one request. body may be nil, a string or []byte (sent verbatim as
// JSON), an io.Reader, or any value (JSON-encoded).
func (e *env) do(method, path, token string, body any) resp {
	e.t.Helper()
	return e.send(e.api().Request(e.t, context.Background(), method, path, token, body))
}

// invalid marks the next request (do, upload, send) as invalid on purpose
// (bad JSON, a wrong type, a missing field): its answer is checked against
// the OpenAPI document, the request itself is not.
func (e *env) invalid() *env {
	e.skip.Store(true)
	return e
}

// send performs a prepared request and reads the whole answer.
func (e *env) send(req *http.Request) resp {
	e.t.Helper()
	if e.skip.Swap(false) {
		req = apptest.Invalid(req)
	}
	return e.api().Send(e.t, req)
}

// mustOK decodes a successful answer of the given status into out.
func (e *env) mustOK(r resp, status int, out any) {
	e.t.Helper()
	if r.Status != status {
		e.t.Fatalf("want %d, got %s", status, r)
	}
	if out != nil {
		r.Decode(e.t, out)
	}
}

// wantErr checks the status and the error code of a refused request, and that
// the body is the one error shape.
func wantErr(t testing.TB, r resp, status int, code string) {
	t.Helper()
	got, msg, ok := r.APIError()
	if !ok {
		t.Fatalf("want error %d %s, got non-error body: %s", status, code, r)
	}
	if r.Status != status || got != code {
		t.Fatalf("want %d %s, got %d %s (%s)", status, code, r.Status, got, msg)
	}
	if msg == "" {
		t.Fatalf("error %s has an empty message", code)
	}
}

type loginJSON struct {
	Token         string    `json:"token"`
	ExpiresAt     time.Time `json:"expires_at"`
	IdleExpiresAt time.Time `json:"idle_expires_at"`
	User          userJSON  `json:"user"`
}

type userJSON struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Role     string `json:"role"`
	Disabled bool   `json:"disabled"`
}

// login signs in and returns the session token.
func (e *env) login(username, password string) string {
	e.t.Helper()
	var out loginJSON
	e.mustOK(e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": username, "password": password}), http.StatusOK, &out)
	if out.Token == "" {
		e.t.Fatal("login returned an empty token")
	}
	return out.Token
}

// createUser adds an account through the admin API.
func (e *env) createUser(username, password, role string) userJSON {
	e.t.Helper()
	var u userJSON
	e.mustOK(e.do(http.MethodPost, "/api/v1/admin/users", e.Admin,
		map[string]string{"username": username, "password": password, "role": role}), http.StatusCreated, &u)
	return u
}

// newUser creates a plain user with userPassword and signs it in.
func (e *env) newUser(username string) (userJSON, string) {
	e.t.Helper()
	u := e.createUser(username, userPassword, "user")
	return u, e.login(username, userPassword)
}

// q builds "path?uri=<escaped>" plus extra key/value pairs.
func q(path, uri string, kv ...string) string {
	v := url.Values{"uri": {uri}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return path + "?" + v.Encode()
}

type itemJSON struct {
	URI       string    `json:"uri"`
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Size      int64     `json:"size"`
	UpdatedAt time.Time `json:"updated_at"`
	Generated bool      `json:"generated"`
}

type listingJSON struct {
	URI        string     `json:"uri"`
	Items      []itemJSON `json:"items"`
	NextOffset *int       `json:"next_offset"`
	NextCursor *string    `json:"next_cursor"`
}

type pageJSON struct {
	URI        string `json:"uri"`
	Offset     int64  `json:"offset"`
	Limit      int64  `json:"limit"`
	NextOffset *int64 `json:"next_offset"`
	Total      int64  `json:"total"`
	Body       string `json:"body"`
	Text       string `json:"text"`
	Encoding   string `json:"encoding"`
}

// listAll reads every page of a folder's children.
func (e *env) listAll(token, uri string) []itemJSON {
	e.t.Helper()
	var all []itemJSON
	offset := 0
	for {
		var l listingJSON
		e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", uri, "offset", fmt.Sprint(offset)), token, nil), http.StatusOK, &l)
		all = append(all, l.Items...)
		if l.NextOffset == nil {
			return all
		}
		if *l.NextOffset <= offset {
			e.t.Fatalf("next_offset %d does not advance past %d", *l.NextOffset, offset)
		}
		offset = *l.NextOffset
	}
}

// names lists the item names of a folder, in the order the API gives.
func (e *env) names(token, uri string) []string {
	e.t.Helper()
	var out []string
	for _, it := range e.listAll(token, uri) {
		out = append(out, it.Name)
	}
	return out
}

// snapItem is what a tree snapshot remembers of one node.
type snapItem struct {
	Kind      string
	Size      int64
	UpdatedAt time.Time
	SHA256    string
}

// snapshot walks the caller's whole tree and records every node, with a hash
// of each file's raw bytes, so a test can prove nothing changed.
func (e *env) snapshot(token string) map[string]snapItem {
	e.t.Helper()
	out := map[string]snapItem{}
	var walk func(uri string)
	walk = func(uri string) {
		for _, it := range e.listAll(token, uri) {
			s := snapItem{Kind: it.Kind, Size: it.Size, UpdatedAt: it.UpdatedAt}
			if it.Kind == "dir" {
				walk(it.URI)
			} else {
				r := e.do(http.MethodGet, q("/api/v1/resources/raw", it.URI), token, nil)
				if r.Status != http.StatusOK {
					e.t.Fatalf("raw %s: %s", it.URI, r)
				}
				sum := sha256.Sum256(r.Body)
				s.SHA256 = hex.EncodeToString(sum[:])
			}
			out[it.URI] = s
		}
	}
	walk("kb://me/")
	return out
}

// sameSnapshot fails with the differences between two snapshots.
func sameSnapshot(t testing.TB, what string, before, after map[string]snapItem) {
	t.Helper()
	var diffs []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			diffs = append(diffs, "gone: "+k)
		} else if !v.UpdatedAt.Equal(w.UpdatedAt) || v.Kind != w.Kind || v.Size != w.Size || v.SHA256 != w.SHA256 {
			diffs = append(diffs, fmt.Sprintf("changed: %s %+v -> %+v", k, v, w))
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diffs = append(diffs, "new: "+k)
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Fatalf("%s changed:\n%s", what, strings.Join(diffs, "\n"))
	}
}

// upFile is one part of a multipart upload.
type upFile struct {
	name string
	data []byte
}

// multipartBody builds a multipart/form-data body with one "file" part per file.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// fileNameParam quotes a file name as mime/multipart does (only \ and "):
// %q would turn a control character into a backslash escape, which the
// server rightly reads as a folder separator. A control character cannot
// stand in a header at all, so such a name travels as RFC 2231 filename*.
func fileNameParam(name string) string {
	if strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "filename*=UTF-8''" + url.PathEscape(name)
	}
	return `filename="` + quoteEscaper.Replace(name) + `"`
}

func multipartBody(t testing.TB, files ...upFile) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; `+fileNameParam(f.name))
		h.Set("Content-Type", "application/octet-stream")
		p, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		p.Write(f.data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

// upload posts files to the folder uri.
func (e *env) upload(token, folder string, files ...upFile) resp {
	e.t.Helper()
	return e.uploadMode(token, folder, "", files...)
}

// uploadMode uploads with an on_conflict mode ("" for the default).
func (e *env) uploadMode(token, folder, mode string, files ...upFile) resp {
	e.t.Helper()
	var kv []string
	if mode != "" {
		kv = []string{"on_conflict", mode}
	}
	return e.uploadQuery(token, folder, kv, files...)
}

// uploadQuery uploads with further query parameters (name, value, …).
func (e *env) uploadQuery(token, folder string, kv []string, files ...upFile) resp {
	e.t.Helper()
	body, ct := multipartBody(e.t, files...)
	u := q("/api/v1/resources/upload", folder, kv...)
	req, err := http.NewRequest(http.MethodPost, e.URL+u, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+token)
	return e.send(req)
}

// mustUpload uploads and returns the created items.
func (e *env) mustUpload(token, folder string, files ...upFile) []itemJSON {
	e.t.Helper()
	var out struct {
		Items []itemJSON `json:"items"`
	}
	e.mustOK(e.upload(token, folder, files...), http.StatusCreated, &out)
	return out.Items
}

// mkdir creates a folder and returns its item.
func (e *env) mkdir(token, uri string) itemJSON {
	e.t.Helper()
	var it itemJSON
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/folders", token, map[string]string{"uri": uri}), http.StatusCreated, &it)
	return it
}

// raw downloads a file's bytes.
func (e *env) raw(token, uri string) []byte {
	e.t.Helper()
	r := e.do(http.MethodGet, q("/api/v1/resources/raw", uri), token, nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("raw %s: %s", uri, r)
	}
	return r.Body
}

// page reads one content page.
func (e *env) page(token, uri string, offset, limit int64) pageJSON {
	e.t.Helper()
	var p pageJSON
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources/content", uri, "offset", fmt.Sprint(offset), "limit", fmt.Sprint(limit)), token, nil), http.StatusOK, &p)
	return p
}

// stagingFiles lists what is left in <datadir>/tmp.
func (e *env) stagingFiles() []string {
	e.t.Helper()
	return scratch.Files(filepath.Join(e.DataDir, "tmp"))
}

// blobFiles counts the stored blobs (and their indexes).
func (e *env) blobFiles() int {
	e.t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(e.DataDir, "blobs"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// waitServed waits until at least n handlers have returned in total.
func (e *env) waitServed(n int64) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.served.Load() < n {
		if time.Now().After(deadline) {
			e.t.Fatalf("server finished %d requests, want %d", e.served.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
