package dav

import (
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
)

// copyMove serves COPY and MOVE (RFC 4918 §9.8, §9.9) with one Tree call
// each, so a whole subtree is copied or moved, and a node it replaces
// trashed, in one transaction; webdav's own COPY walks the tree file by
// file.
func (h *door) copyMove(w http.ResponseWriter, r *http.Request, fs *fileSystem, ls *lockSystem, name string) {
	ctx := r.Context()
	u, err := url.Parse(r.Header.Get("Destination"))
	if err != nil || r.Header.Get("Destination") == "" {
		writeError(w, apierr.BadRequest(apierr.CodeInvalidDestination, "the Destination header must be the URL to copy or move to"))
		return
	}
	if u.Host != "" && u.Host != r.Host {
		writeError(w, apierr.New(http.StatusBadGateway, apierr.CodeForeignDestination, "the Destination is on another server"))
		return
	}
	dstName, ok := strings.CutPrefix(u.Path, Path+"/")
	if !ok {
		writeError(w, apierr.New(http.StatusBadGateway, apierr.CodeForeignDestination, "the Destination must be below %s/", Path))
		return
	}
	src, dst := fs.treePath(name), fs.treePath(dstName)
	if src == dst {
		writeError(w, apierr.Forbidden(apierr.CodeSameDestination, "the Destination is the source itself"))
		return
	}
	depthInfinite := true
	switch d := r.Header.Get("Depth"); {
	case d == "" || strings.EqualFold(d, "infinity"):
	case d == "0" && r.Method == "COPY":
		depthInfinite = false
	default:
		writeError(w, apierr.BadRequest(apierr.CodeInvalidDepth, "%s takes Depth: infinity%s", r.Method, map[bool]string{true: " or 0", false: ""}[r.Method == "COPY"]))
		return
	}
	overwrite := r.Header.Get("Overwrite") != "F"
	lockSrc := name
	if r.Method == "COPY" {
		// Copying reads the source: another client's lock on it is no bar
		// (RFC 4918 §7.5, and litmus checks it).
		lockSrc = ""
	}
	if status := h.confirm(r, ls, lockSrc, "/"+dstName); status != 0 {
		writeStatus(w, status)
		return
	}
	se, err := fs.stat(ctx, src)
	if err != nil {
		writeError(w, err)
		return
	}
	for _, p := range []string{src, dst} {
		if r.Method == "COPY" && p == src {
			continue
		}
		if err := fs.writable(ctx, p); err != nil {
			writeError(w, err)
			return
		}
	}
	if _, err := fs.parentOf(ctx, dst); err != nil {
		if isNotFound(err) {
			writeError(w, apierr.Conflict(apierr.CodeNoParent, "the folder of the Destination does not exist"))
		} else {
			writeError(w, err)
		}
		return
	}
	if _, err := fs.stat(ctx, dst); err == nil && !overwrite {
		writeError(w, apierr.New(http.StatusPreconditionFailed, apierr.CodeDestinationExists, "the Destination exists and Overwrite is F"))
		return
	}
	from, to := fs.uri(src, se.Dir), fs.uri(dst, false)
	var replaced bool
	switch {
	case r.Method == "MOVE":
		_, replaced, err = h.tree.MoveReplacing(ctx, fs.c, from, to)
	case se.Dir && !depthInfinite:
		_, replaced, err = h.tree.CopyShallow(ctx, fs.c, from, to, overwrite)
	default:
		_, replaced, err = h.tree.Copy(ctx, fs.c, from, to, overwrite)
	}
	if err == nil && r.Method == "COPY" {
		err = h.st.CopyDavProps(ctx, fs.c.ID, src, dst, depthInfinite)
	}
	if e, ok := apierr.As(err); ok && e.Code == apierr.CodeAlreadyExists {
		err = apierr.New(http.StatusPreconditionFailed, apierr.CodeDestinationExists, "the Destination exists and Overwrite is F")
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if replaced {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Location", Path+"/"+strings.TrimPrefix(path.Clean("/"+dstName), "/"))
	w.WriteHeader(http.StatusCreated)
}

func writeStatus(w http.ResponseWriter, status int) {
	switch status {
	case http.StatusPreconditionFailed:
		writeError(w, apierr.New(status, apierr.CodeLockTokenMismatch, "no lock named in the If header covers this request"))
	case http.StatusBadRequest:
		writeError(w, apierr.BadRequest(apierr.CodeInvalidIfHeader, "the If header is malformed"))
	case 423:
		writeError(w, apierr.New(status, apierr.CodeLocked, "another client holds a lock on this resource"))
	default:
		writeError(w, apierr.New(status, apierr.CodeLockCheckFailed, "the lock check failed"))
	}
}
