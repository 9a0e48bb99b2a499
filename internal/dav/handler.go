// Package dav is the WebDAV front door at /dav/: the caller's own tree
// (or a scoped token's folder) as a network drive for Finder, Windows
// Explorer, davfs2, rclone and Obsidian sync plugins. golang.org/x/net/webdav
// speaks the protocol over a file system and lock system of ours, which
// call the same Tree methods as the REST API; COPY and MOVE are served
// here so each is one transaction.
package dav

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"strings"

	"github.com/knowspace/knowspace/internal/access"

	"golang.org/x/net/webdav"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// Path is where the door is mounted.
const Path = "/dav"

// Methods are the WebDAV methods beyond those every router knows.
var Methods = []string{"PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"}

// Deps are the services the door calls.
type Deps struct {
	Tree  *knowledge.Tree
	Auth  *auth.Service
	Store *store.Store // locks and dead properties
	// MaxUpload is the per-file upload limit the Tree enforces; a PUT that
	// announces more is refused before its body is read.
	MaxUpload int64
}

type door struct {
	tree      *knowledge.Tree
	auth      *auth.Service
	st        *store.Store
	maxUpload int64
}

// New builds the /dav handler.
func New(d Deps) http.Handler {
	return &door{tree: d.Tree, auth: d.Auth, st: d.Store, maxUpload: d.MaxUpload}
}

func (h *door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Vary", "Authorization")
	// A stored HTML file must not run as this origin's page.
	hdr.Set("Content-Security-Policy", "sandbox")
	hdr.Set("X-Content-Type-Options", "nosniff")
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r) {
		writeError(w, apierr.Forbidden(apierr.CodeForeignOrigin, "requests from another origin are refused; /dav/ serves WebDAV clients"))
		return
	}
	p, err := h.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	c := p.Caller()
	// The address came from the API's middleware; the account is known now.
	r = r.WithContext(audit.WithAccount(r.Context(), p.User.ID, p.User.Username, p.TokenID, ""))
	observe.NoteUser(r.Context(), c.ID)
	if !readMethod(r.Method) {
		if err := access.Allow(c, access.FolderWrite, r.Method+" is refused"); err != nil {
			writeError(w, err)
			return
		}
	}
	ctx, st := withState(r.Context())
	r = r.WithContext(ctx)
	fs := &fileSystem{tree: h.tree, store: h.st, audit: h.auth.Audit(), c: c, root: c.ScopePath}
	ls := &lockSystem{ctx: ctx, st: h.st, userID: c.ID, fs: fs,
		probeOnly: r.Header.Get("If") == "" && r.Method != "LOCK",
		deep:      r.Method == "DELETE" || r.Method == "MOVE" || r.Method == "COPY"}
	aw := &answerWriter{ResponseWriter: w, st: st}
	name, ok := strings.CutPrefix(r.URL.Path, Path)
	if !ok || name != "" && name[0] != '/' {
		writeError(w, apierr.NotFound(apierr.CodeNotFound, "no such resource"))
		return
	}
	switch r.Method {
	case "PROPFIND":
		if d := r.Header.Get("Depth"); d != "0" && d != "1" {
			finiteDepth(w)
			return
		}
		if err := checkXMLBody(r); err != nil {
			writeError(w, err)
			return
		}
	case "PUT":
		if !h.putAllowed(aw, r, fs, name) {
			return
		}
		tb := &trackedBody{ReadCloser: r.Body}
		r.Body, fs.body = tb, tb
	case "LOCK":
		if err := checkXMLBody(r); err != nil {
			writeError(w, err)
			return
		}
	case "PROPPATCH":
		if err := checkXMLBody(r); err != nil {
			writeError(w, err)
			return
		}
		if !h.preconditions(aw, r, fs, name) {
			return
		}
	case "DELETE", "MKCOL":
		if !h.preconditions(aw, r, fs, name) {
			return
		}
	case "COPY", "MOVE":
		h.copyMove(aw, r, fs, ls, name)
		return
	}
	dh := &webdav.Handler{Prefix: Path, FileSystem: fs, LockSystem: ls}
	dh.ServeHTTP(aw, r)
}

func readMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions, "PROPFIND":
		return true
	}
	return false
}

// finiteDepth refuses a PROPFIND of a whole subtree (RFC 4918 §9.1): a
// client walks it one level at a time instead.
func finiteDepth(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte(xml.Header + `<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>`))
}

// putAllowed checks a PUT before its body is read: the announced size
// against the upload limit (413) and If-Match / If-None-Match against the
// file's ETag (412).
func (h *door) putAllowed(w http.ResponseWriter, r *http.Request, fs *fileSystem, name string) bool {
	if h.maxUpload > 0 && r.ContentLength > h.maxUpload {
		writeError(w, apierr.TooLarge(apierr.CodeFileTooLarge, "the file is %d bytes, larger than the upload limit of %d bytes", r.ContentLength, h.maxUpload).WithDetail("limit_bytes", h.maxUpload))
		return false
	}
	return h.preconditions(w, r, fs, name)
}

// preconditions honours If-Match and If-None-Match on a method that
// changes the resource (GET and HEAD have them from http.ServeContent).
func (h *door) preconditions(w http.ResponseWriter, r *http.Request, fs *fileSystem, name string) bool {
	im, inm := r.Header.Get("If-Match"), r.Header.Get("If-None-Match")
	if im == "" && inm == "" {
		return true
	}
	e, err := fs.stat(r.Context(), fs.treePath(name))
	exists := err == nil
	if err != nil && !isNotFound(err) {
		writeError(w, err)
		return false
	}
	etag := ""
	if exists && !e.Dir {
		etag = etagOf(e)
	}
	if im != "" && !(exists && matchesETag(im, etag)) || inm != "" && exists && matchesETag(inm, etag) {
		writeError(w, apierr.New(http.StatusPreconditionFailed, apierr.CodePreconditionFailed, "the resource's ETag does not match the request's If-Match / If-None-Match"))
		return false
	}
	return true
}

// matchesETag compares a list of entity tags (or *) strongly.
func matchesETag(list, etag string) bool {
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t != "" && t == etag {
			return true
		}
	}
	return false
}

func isNotFound(err error) bool {
	e, ok := apierr.As(err)
	return ok && e.Status == http.StatusNotFound
}

func sameOrigin(o string, r *http.Request) bool {
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}
