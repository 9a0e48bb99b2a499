package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/importer"
	"github.com/knowspace/knowspace/internal/kb"
)

// importArchive stages one multipart "file" part holding an archive and
// queues its import as a folder; the answer is the job, which the task
// center follows like a compile job.
func (h *handlers) importArchive(c echo.Context) error {
	if h.Import == nil || h.Compile == nil {
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeImportUnavailable, "importing archives is not available on this server")
	}
	ctx := c.Request().Context()
	req := importer.Request{URI: c.QueryParam("uri"), Into: c.QueryParam("into"), OnConflict: c.QueryParam("on_conflict")}
	// A bad folder, or one shared read-only, fails before any byte is read.
	target := req.Into
	if target == "" {
		target = req.URI
	}
	if target == "" {
		return apierr.BadRequest(apierr.CodeMissingURI, "uri (the folder to create the import in) or into (an existing folder) is required")
	}
	if _, _, err := h.Tree.ResolveWrite(ctx, caller(c), target); err != nil {
		return err
	}
	mr, err := h.multipartBody(c, "one part named \"file\" holding the archive")
	if err != nil {
		return err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return apierr.BadRequest(apierr.CodeNoFiles, "the request has no file part named \"file\"")
		}
		if err != nil {
			return apierr.BadRequest(apierr.CodeInvalidUpload, "the multipart body is malformed or was cut off; nothing was stored").WithCause(err)
		}
		if part.FormName() != "file" {
			if n, _ := io.CopyN(io.Discard, part, maxOtherPart+1); n > maxOtherPart {
				return apierr.TooLarge(apierr.CodePartTooLarge, "the form field %q is larger than %d bytes", kb.Clip(part.FormName(), 60), maxOtherPart)
			}
			continue
		}
		req.FileName = partFileName(part)
		if _, _, err := req.Validate(); err != nil {
			return err
		}
		j, err := h.Import.Enqueue(ctx, caller(c), req, part)
		if err != nil {
			var maxErr *http.MaxBytesError
			if errors.As(err, &maxErr) {
				return h.requestTooLarge()
			}
			return err
		}
		v, err := h.Compile.Job(ctx, caller(c), j.ID)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusAccepted, map[string]any{"job": v})
	}
}
