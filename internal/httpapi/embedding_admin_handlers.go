package httpapi

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/compile"
)

// embeddingInUseBody chooses the embedding model meaning search uses.
type embeddingInUseBody struct {
	ID string `json:"id"`
}

func (b *embeddingInUseBody) Validate() error {
	if b.ID == "" {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "id: is required").WithDetail("field", "id")
	}
	return nil
}

// useEmbeddingModel puts an embedding model in use on every replica; the
// files are embedded again under it in the background.
func (h *handlers) useEmbeddingModel(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	var body embeddingInUseBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	err = cat.UseEmbedding(c.Request().Context(), body.ID)
	h.record(c, audit.Event{Action: audit.ModelChange, Target: "embedding_in_use", After: audit.JSON(map[string]any{"id": body.ID})}, err)
	if err != nil {
		return err
	}
	return h.listAdminModels(c)
}

// checkEmbedding embeds one short text with the form's embedding model.
func (h *handlers) checkEmbedding(ctx context.Context, cat *catalog.Service, in catalog.Input) (checkJSON, error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	res, err := cat.CheckEmbedding(ctx, in)
	if err != nil {
		return checkJSON{}, err
	}
	out := checkJSON{OK: res.OK, LatencyMS: res.Latency.Milliseconds()}
	if !res.OK {
		out.Error = &compile.JobError{Code: res.Code, Message: res.Message}
	}
	return out, nil
}
