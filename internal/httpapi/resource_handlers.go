package httpapi

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
)

func (h *handlers) listResources(c echo.Context) error {
	offset, err := queryInt(c, "offset", apierr.CodeInvalidOffset)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	uri := c.QueryParam("uri")
	if uri == "" {
		uri = "kb://me/"
	}
	pr := knowledge.PageRequest{Cursor: c.QueryParam("cursor"), Offset: int(offset), Limit: int(limit)}
	l, err := h.Tree.ListPage(c.Request().Context(), caller(c), uri, pr)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

type uriRequest struct {
	URI string `json:"uri"`
}

func (r *uriRequest) Validate() error {
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required")
	}
	return nil
}

func (h *handlers) createFolder(c echo.Context) error {
	var req uriRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	item, err := h.Tree.Mkdir(c.Request().Context(), caller(c), req.URI)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, item)
}

type moveRequest struct {
	URI    string `json:"uri"`
	NewURI string `json:"new_uri"`
}

func (r *moveRequest) Validate() error {
	if r.URI == "" || r.NewURI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri and new_uri are required")
	}
	return nil
}

func (h *handlers) moveResource(c echo.Context) error {
	var req moveRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	item, err := h.Tree.Move(c.Request().Context(), caller(c), req.URI, req.NewURI)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, item)
}

type copyRequest struct {
	URI    string `json:"uri"`
	NewURI string `json:"new_uri"`
}

func (r *copyRequest) Validate() error {
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required")
	}
	return nil
}

// copyResource copies to new_uri, or without one copies a file to edit.
func (h *handlers) copyResource(c echo.Context) error {
	var req copyRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var item knowledge.Item
	var err error
	if req.NewURI == "" {
		item, err = h.Tree.CopyToEdit(ctx, caller(c), req.URI)
	} else {
		item, _, err = h.Tree.Copy(ctx, caller(c), req.URI, req.NewURI, false)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, item)
}

func (h *handlers) deleteResource(c echo.Context) error {
	uri := c.QueryParam("uri")
	err := h.Tree.Delete(c.Request().Context(), caller(c), uri)
	h.record(c, audit.Event{Action: audit.Delete, Target: targetURI(c, uri)}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// upload streams each multipart "file" part to staging as it arrives, so a
// large upload never sits in memory, then commits them all or none. Limits
// are checked as bytes arrive: a part or a request past its limit is refused
// at once, not read to the end (net/http then closes the connection rather
// than drain the rest).
func (h *handlers) upload(c echo.Context) error {
	ctx := c.Request().Context()
	folder := c.QueryParam("uri")
	onConflict, err := knowledge.ParseConflict(c.QueryParam("on_conflict"))
	if err != nil {
		return err
	}
	parents, err := queryBool(c, "parents", apierr.CodeInvalidParents)
	if err != nil {
		return err
	}
	// Resolve first: a bad folder, or one shared read-only, fails before
	// any byte is stored.
	if _, _, err := h.Tree.ResolveWrite(ctx, caller(c), folder); err != nil {
		return err
	}
	mr, err := h.multipartBody(c, "one or more parts named \"file\"")
	if err != nil {
		return err
	}
	var staged []knowledge.Staged
	fail := func(err error) error {
		knowledge.Discard(staged)
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return h.requestTooLarge()
		}
		return err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(apierr.BadRequest(apierr.CodeInvalidUpload, "the multipart body is malformed or was cut off; nothing was stored").WithCause(err))
		}
		if part.FormName() != "file" {
			// Other fields are ignored, but only small ones are read past.
			n, err := io.CopyN(io.Discard, part, maxOtherPart+1)
			part.Close()
			if n > maxOtherPart {
				return fail(apierr.TooLarge(apierr.CodePartTooLarge, "the form field %q is larger than %d bytes; only parts named \"file\" may be large", kb.Clip(part.FormName(), 60), maxOtherPart))
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return fail(apierr.BadRequest(apierr.CodeInvalidUpload, "the multipart body is malformed or was cut off; nothing was stored").WithCause(err))
			}
			continue
		}
		if len(staged) == knowledge.MaxUploadFiles {
			return fail(apierr.BadRequest(apierr.CodeTooManyFiles, "at most %d files per upload", knowledge.MaxUploadFiles).WithDetail("max", knowledge.MaxUploadFiles))
		}
		name := partFileName(part)
		s, err := h.Tree.StagePath(name, parents, part)
		if err != nil {
			// Not part.Close: it would read the rest of an oversized part.
			return fail(knowledge.ForFile(err, name))
		}
		part.Close()
		staged = append(staged, s)
	}
	items, err := h.Tree.CommitUpload(ctx, caller(c), folder, staged, onConflict)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"items": items})
}

// multipartBody opens a request's multipart body under the request cap;
// holds says what the parts must be, for the error.
func (h *handlers) multipartBody(c echo.Context, holds string) (*multipart.Reader, error) {
	if h.MaxUploadRequest > 0 {
		if c.Request().ContentLength > h.MaxUploadRequest {
			return nil, h.requestTooLarge()
		}
		c.Request().Body = http.MaxBytesReader(c.Response(), c.Request().Body, h.MaxUploadRequest)
	}
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return nil, apierr.BadRequest(apierr.CodeInvalidUpload, "send multipart/form-data with %s", holds)
	}
	return mr, nil
}

// partFileName is the file name as the client sent it, folders and all:
// Part.FileName keeps only the last element, which silently flattened
// lib/a/b.md into b.md and ../x.md into x.md.
func partFileName(p *multipart.Part) string {
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil {
		return p.FileName()
	}
	return params["filename"]
}

// maxOtherPart bounds a multipart part not named "file".
const maxOtherPart = 64 << 10

func (h *handlers) requestTooLarge() error {
	return apierr.TooLarge(apierr.CodeUploadTooLarge, "the upload request is larger than the limit of %d bytes for all its files together; nothing was stored", h.MaxUploadRequest).WithDetail("limit_bytes", h.MaxUploadRequest)
}

func (h *handlers) readContent(c echo.Context) error {
	offset, err := queryInt(c, "offset", apierr.CodeInvalidOffset)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	if c.QueryParam("limit") != "" && limit == 0 {
		return apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d characters", knowledge.MaxPageLimit).WithDetail("max", knowledge.MaxPageLimit)
	}
	p, err := h.Tree.ReadPage(c.Request().Context(), caller(c), c.QueryParam("uri"), offset, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// downloadRaw serves the uploaded bytes as an attachment: stored HTML or SVG
// must never run as a page of this origin.
func (h *handlers) downloadRaw(c echo.Context) error {
	f, err := h.Tree.OpenRaw(c.Request().Context(), caller(c), c.QueryParam("uri"))
	if err != nil {
		return err
	}
	defer f.Close()
	hdr := c.Response().Header()
	hdr.Set("Content-Type", f.MediaType)
	hdr.Set("Content-Length", strconv.FormatInt(f.Size, 10))
	hdr.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "sandbox")
	c.Response().WriteHeader(http.StatusOK)
	_, err = io.Copy(c.Response(), f)
	return err
}
