package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/extract"
)

// PageRenderer draws one page of a PDF for the preview; the extraction's
// Isolation is one (the child process, its budget and memory ceiling).
type PageRenderer interface {
	RenderPage(ctx context.Context, name string, src io.Reader, page int) (extract.PageImage, error)
}

// maxPageImageSource is the largest PDF a page is drawn from: the most the
// parse step reads, so every file that has OCR text can show its pages.
const maxPageImageSource = 50 << 20

// pageImage answers GET /resources/page-image?uri=&page=: one page of a
// PDF as a PNG, for the preview of a scanned document beside its OCR text.
func (h *handlers) pageImage(c echo.Context) error {
	page, err := strconv.Atoi(c.QueryParam("page"))
	if err != nil || page < 1 {
		return apierr.BadRequest(apierr.CodeInvalidPage, "page must be a page number, counting from 1")
	}
	ctx := c.Request().Context()
	f, err := h.Tree.OpenRaw(ctx, caller(c), c.QueryParam("uri"))
	if err != nil {
		return err
	}
	defer f.Close()
	if !strings.EqualFold(path.Ext(f.Name), ".pdf") {
		return apierr.BadRequest(apierr.CodeNotAPDF, "%s is not a PDF: page images are drawn of PDFs (an image is shown as it is, from /resources/raw)", f.Name)
	}
	if f.Size > maxPageImageSource {
		return apierr.TooLarge(apierr.CodeTooLarge, "%s is larger than %d MB, the most a page is drawn from", f.Name, maxPageImageSource>>20)
	}
	// The same bytes draw the same page: a browser that has it asks again
	// (no-cache) and gets 304 without a render, but only after the read
	// was authorized above.
	etag := fmt.Sprintf(`"%s-p%d-w%d"`, f.Hash, page, extract.PageImageMaxWidth)
	hdr := c.Response().Header()
	hdr.Set("Cache-Control", "private, no-cache")
	hdr.Set("ETag", etag)
	if c.Request().Header.Get("If-None-Match") == etag {
		return c.NoContent(http.StatusNotModified)
	}
	if h.Pages == nil {
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeRendererUnavailable, "drawing PDF pages is not available on this server")
	}
	// A render is a child process: a few at a time, a few per user, and a
	// client that leaves while it waits for a turn costs nothing. The file
	// streams to the child, so waiting requests hold no copy of it.
	release, err := h.renders.acquire(ctx, caller(c).ID)
	if err != nil {
		return clientLeft(ctx)
	}
	defer release()
	img, err := h.Pages.RenderPage(ctx, f.Name, f, page)
	if err != nil {
		if ctx.Err() != nil {
			return clientLeft(ctx)
		}
		return pageImageError(err, img.Pages)
	}
	hdr.Set("X-Page-Count", strconv.Itoa(img.Pages))
	hdr.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "image/png", img.PNG)
}

// clientLeft is the answer no one reads: the client closed the request
// (nginx's 499), which is not a failure of the server to log as one.
func clientLeft(ctx context.Context) error {
	return apierr.New(499, apierr.CodeClientClosedRequest, "the request was closed before the page was drawn").WithCause(ctx.Err())
}

// pageImageError maps a failed render to the API's error; pages is the
// document's page count when it is known.
func pageImageError(err error, pages int) error {
	var e *extract.Error
	if !errors.As(err, &e) {
		return err // the child could not start: a 500
	}
	switch e.Code {
	case extract.CodePageOutOfRange:
		a := apierr.BadRequest(apierr.CodePageOutOfRange, "%s", e.Message)
		if pages > 0 {
			a = a.WithDetail("pages", pages)
		}
		return a
	case extract.CodeTimeout:
		return apierr.New(http.StatusGatewayTimeout, apierr.CodeParseTimeout, "%s", e.Message)
	case extract.CodeTooLarge:
		return apierr.New(http.StatusUnprocessableEntity, apierr.CodeTooLarge, "%s", e.Message)
	case extract.CodeNoRenderer:
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeRendererUnavailable, "%s", e.Message)
	case extract.CodeEncrypted:
		return apierr.New(http.StatusUnprocessableEntity, apierr.CodeEncrypted, "%s", e.Message)
	}
	// parse_failed, or whatever else the renderer said: this file cannot
	// be drawn.
	return apierr.New(http.StatusUnprocessableEntity, apierr.CodeParseFailed, "%s", e.Message)
}
