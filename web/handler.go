// Package web serves the browser app: the Vite build in web/dist when the
// binary is built with -tags embedspa, a small placeholder page otherwise.
package web

import (
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

const (
	indexFile = "index.html"
	// cacheIndex makes browsers revalidate the shell so a new build is picked up at once.
	cacheIndex = "no-cache"
	// cacheAsset suits Vite's content-hashed file names under assets/.
	cacheAsset = "public, max-age=31536000, immutable"
)

// newHandler serves files from fsys. Paths without an extension that match no
// file get index.html, so client-side routes survive a reload; /api/ paths and
// paths with an extension answer 404 when missing.
func newHandler(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = indexFile
		}
		if name == "api" || strings.HasPrefix(name, "api/") {
			http.NotFound(w, r)
			return
		}
		if serveFile(w, r, fsys, name) {
			return
		}
		if path.Ext(name) != "" {
			http.NotFound(w, r)
			return
		}
		if !serveFile(w, r, fsys, indexFile) {
			http.NotFound(w, r)
		}
	})
}

// serveFile writes one regular file and reports whether it existed.
func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	f, err := fsys.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return false
	}
	switch {
	case name == indexFile:
		w.Header().Set("Cache-Control", cacheIndex)
	case strings.HasPrefix(name, "assets/"):
		w.Header().Set("Cache-Control", cacheAsset)
	}
	// Embedded files carry no modification time; a zero time disables
	// Last-Modified, which would be wrong for every build anyway.
	http.ServeContent(w, r, path.Base(name), time.Time{}, rs)
	return true
}
