package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/compile"
)

// Model checks make real provider calls, so each user gets a few a minute.
const (
	checksPerMinute = 6
	checkTimeout    = 20 * time.Second
)

// checkJSON answers a model or CLI profile check: ok with the call's
// latency, or the classified failure. A failed check is still 200: the
// check itself worked.
type checkJSON struct {
	OK        bool              `json:"ok"`
	LatencyMS int64             `json:"latency_ms"`
	Error     *compile.JobError `json:"error,omitempty"`
}

// checkModel makes one 1-token completion through the registry. The error
// is the provider failure's classified code (llm_auth, llm_connect_error,
// llm_model_not_found, llm_rate_limited, llm_timeout, …) with its redacted
// message, which never holds the key, base URL or upstream name.
func (h *handlers) checkModel(c echo.Context) error {
	id, err := url.PathUnescape(c.Param("id"))
	if err != nil || h.Models == nil {
		return apierr.NotFound(apierr.CodeUnknownModel, "no model with id %q", c.Param("id")).WithDetail("model", c.Param("id"))
	}
	if _, err := h.Models.LookupFor(c.Request().Context(), currentUser(c).ID, id); err != nil {
		if llm.IsUnknownModel(err) {
			return apierr.NotFound(apierr.CodeUnknownModel, "no model with id %q", id).WithDetail("model", id)
		}
		return err
	}
	if err := h.checks.allow(currentUser(c).ID, apierr.CodeTooManyChecks, "checks"); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, probe(checkContext(c), h.Models, id))
}

// checkContext files a check's call under its user, as usage purpose check.
func checkContext(c echo.Context) context.Context {
	return llm.WithAttribution(c.Request().Context(), llm.Attribution{UserID: currentUser(c).ID, Purpose: llm.PurposeCheck})
}

// probe is the check itself: one 1-token completion of model id through
// reg, timed.
func probe(ctx context.Context, reg *llm.Registry, id string) checkJSON {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	start := time.Now()
	_, err := reg.Complete(ctx, id, llm.Request{MaxTokens: 1,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Reply with OK."}}})
	out := checkJSON{OK: err == nil, LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		out.Error = &compile.JobError{Code: "check_failed", Message: "the model call failed"}
		if le, ok := llm.AsError(err); ok {
			out.Error = &compile.JobError{Code: le.Code(), Message: le.Message}
		}
	}
	return out
}

// checkCLIProfile runs the profile's program with --version (see
// compile.Service.CheckCLIProfile); it shares the model checks' limit.
func (h *handlers) checkCLIProfile(c echo.Context) error {
	name := c.Param("name")
	if h.Compile == nil || !h.Compile.HasCLIProfile(name) {
		return apierr.NotFound(apierr.CodeCLIProfileNotFound, "no cli profile named %q", name)
	}
	if err := h.checks.allow(currentUser(c).ID, apierr.CodeTooManyChecks, "checks"); err != nil {
		return err
	}
	start := time.Now()
	fail, err := h.Compile.CheckCLIProfile(c.Request().Context(), name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, checkJSON{OK: fail == nil, LatencyMS: time.Since(start).Milliseconds(), Error: fail})
}
