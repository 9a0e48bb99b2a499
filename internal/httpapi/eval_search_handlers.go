package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/evalsearch"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// evalSearchRequest is POST /admin/eval-search: known-answer questions to
// ask below uri, in modes (every search mode when empty).
type evalSearchRequest struct {
	URI       string                `json:"uri"`
	Questions []evalsearch.Question `json:"questions"`
	Modes     []string              `json:"modes"`
}

func (r *evalSearchRequest) Validate() error {
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeMissingURI, "uri is required: the folder whose files answer the questions")
	}
	if _, err := evalsearch.CheckModes(r.Modes); err != nil {
		return err
	}
	return evalsearch.CheckQuestions(r.Questions)
}

// evalSearch asks the questions as the calling admin, through the search
// every door runs, and answers each mode's recall and MRR.
func (h *handlers) evalSearch(c echo.Context) error {
	var req evalSearchRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	rep, err := evalsearch.Run(c.Request().Context(), tools.New(h.Tree), caller(c),
		evalsearch.Request{URI: req.URI, Questions: req.Questions, Modes: req.Modes})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
