package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge"
)

func (h *handlers) listResources(c echo.Context) error {
	offset, err := queryInt(c, "offset")
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit")
	if err != nil {
		return err
	}
	uri := c.QueryParam("uri")
	if uri == "" {
		uri = "kb://me/"
	}
	l, err := h.Tree.List(c.Request().Context(), caller(c), uri, int(offset), int(limit))
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
		return apierr.BadRequest("invalid_uri", "uri is required")
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
		return apierr.BadRequest("invalid_uri", "uri and new_uri are required")
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

func (h *handlers) deleteResource(c echo.Context) error {
	if err := h.Tree.Delete(c.Request().Context(), caller(c), c.QueryParam("uri")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// upload streams each multipart "file" part to staging as it arrives, so a
// large upload never sits in memory, then commits them all or none.
func (h *handlers) upload(c echo.Context) error {
	ctx := c.Request().Context()
	folder := c.QueryParam("uri")
	onConflict, err := knowledge.ParseConflict(c.QueryParam("on_conflict"))
	if err != nil {
		return err
	}
	// Resolve first: a bad folder fails before any byte is stored.
	if _, _, err := h.Tree.Resolve(ctx, caller(c), folder); err != nil {
		return err
	}
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return apierr.BadRequest("invalid_upload", "send multipart/form-data with one or more parts named \"file\"")
	}
	var staged []knowledge.Staged
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			knowledge.Discard(staged)
			return apierr.BadRequest("invalid_upload", "the multipart body is malformed or was cut off; nothing was stored").WithCause(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		if len(staged) == knowledge.MaxUploadFiles {
			knowledge.Discard(staged)
			return apierr.BadRequest("too_many_files", "at most %d files per upload", knowledge.MaxUploadFiles)
		}
		s, err := h.Tree.Stage(part.FileName(), part)
		part.Close()
		if err != nil {
			knowledge.Discard(staged)
			return err
		}
		staged = append(staged, s)
	}
	items, err := h.Tree.CommitUpload(ctx, caller(c), folder, staged, onConflict)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"items": items})
}

func (h *handlers) readContent(c echo.Context) error {
	offset, err := queryInt(c, "offset")
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit")
	if err != nil {
		return err
	}
	if c.QueryParam("limit") != "" && limit == 0 {
		return apierr.BadRequest("invalid_limit", "limit must be between 1 and %d characters", knowledge.MaxPageLimit)
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
