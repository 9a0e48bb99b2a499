package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// overviewJSON is GET /admin/overview.
type overviewJSON struct {
	Users struct {
		Total    int64 `json:"total"`
		Disabled int64 `json:"disabled"`
		Admins   int64 `json:"admins"`
	} `json:"users"`
	Files int64            `json:"files"`
	Bytes int64            `json:"bytes"`
	Jobs  map[string]int64 `json:"jobs"`
	// ActiveStreams counts the chat answers streaming on the replica that
	// answers this request only: streams are not in the database.
	ActiveStreams int `json:"active_streams"`
	// Meaning is meaning search's progress; absent without an embedding
	// model.
	Meaning *meaningJSON `json:"meaning,omitempty"`
}

type meaningJSON struct {
	Model     string `json:"model"`
	Files     int64  `json:"embedded_files"`
	Waiting   int64  `json:"waiting_files"`
	Failed    int64  `json:"failed_files"`
	Chunks    int64  `json:"chunks"`
	LastError string `json:"last_error,omitempty"`
}

// meaningProgress reports the embedding model's progress; a model that
// cannot say its vector space yet reports why, within a short wait.
func (h *handlers) meaningProgress(ctx context.Context) (*meaningJSON, error) {
	m := h.Tree.Meaning()
	if m == nil {
		return nil, nil
	}
	out := &meaningJSON{Model: m.ID()}
	if h.Embedding != nil {
		out.LastError = h.Embedding.LastError()
	}
	kctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	key, err := m.Key(kctx)
	if err != nil {
		out.LastError = err.Error()
		return out, nil
	}
	st, err := h.Store.EmbedProgress(ctx, key)
	if err != nil {
		return nil, err
	}
	out.Files, out.Waiting, out.Failed, out.Chunks = st.Files, st.Waiting, st.Failed, st.Chunks
	return out, nil
}

func (h *handlers) overview(c echo.Context) error {
	o, err := h.Store.Overview(c.Request().Context())
	if err != nil {
		return err
	}
	var out overviewJSON
	out.Users.Total, out.Users.Disabled, out.Users.Admins = o.Users, o.DisabledUsers, o.Admins
	out.Files, out.Bytes, out.Jobs, out.ActiveStreams = o.Files, o.Bytes, o.Jobs, h.Turns.Open()
	if out.Meaning, err = h.meaningProgress(c.Request().Context()); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}
