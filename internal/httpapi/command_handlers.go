package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// maxCommandBody bounds a command request; a command is a few short fields.
const maxCommandBody = 64 << 10

// runCommand serves POST /knowledge-agent/command: {command, uri, offset?,
// limit?, query?} runs the tool of that name with uri as its scope, with
// the same validation, result shape and limits as a model's tool call.
func (h *handlers) runCommand(c echo.Context) error {
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, maxCommandBody))
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return apierr.TooLarge(apierr.CodeBodyTooLarge, "a command body is at most %d bytes", maxCommandBody)
	}
	if err != nil {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "the request body could not be read").WithCause(err)
	}
	res, err := tools.New(h.Tree).RunCommand(c.Request().Context(), caller(c), body)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, res.JSON)
}
