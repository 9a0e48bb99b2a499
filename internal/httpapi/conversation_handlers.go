package httpapi

import (
	"mime"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/audit"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/turn"
)

type createConversationRequest struct {
	URI   string `json:"uri"`
	Title string `json:"title"`
}

func (r *createConversationRequest) Validate() error {
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required: the folder or file the conversation is about")
	}
	return nil
}

type renameConversationRequest struct {
	Title *string `json:"title"`
}

func (r *renameConversationRequest) Validate() error {
	if r.Title == nil {
		return apierr.BadRequest(apierr.CodeInvalidTitle, "title is required")
	}
	return nil
}

// conversationsOff answers when the server keeps no conversations
// (conversations: {store: false}).
func conversationsOff() error { return turn.ConversationsOff() }

func (h *handlers) createConversation(c echo.Context) error {
	if h.Chat == nil {
		return conversationsOff()
	}
	var req createConversationRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	conv, err := h.Chat.Create(c.Request().Context(), caller(c), req.URI, req.Title)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, conv)
}

func (h *handlers) listConversations(c echo.Context) error {
	if h.Chat == nil {
		return c.JSON(http.StatusOK, chat.Page{Items: []chat.Conversation{}, Stored: false})
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	page, err := h.Chat.List(c.Request().Context(), caller(c), chat.ListRequest{
		URI: c.QueryParam("uri"), Query: c.QueryParam("q"), Cursor: c.QueryParam("cursor"), Limit: int(limit),
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// conversationID reads :id; with conversations off every id is unknown.
func (h *handlers) conversationID(c echo.Context) (int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, err
	}
	if h.Chat == nil {
		return 0, chat.NotFound(id)
	}
	return id, nil
}

func (h *handlers) getConversation(c echo.Context) error {
	id, err := h.conversationID(c)
	if err != nil {
		return err
	}
	all := false
	switch v := c.QueryParam("versions"); v {
	case "", "current":
	case "all":
		all = true
	default:
		return apierr.BadRequest(apierr.CodeInvalidVersions, "versions must be all or current, not %q", v)
	}
	d, err := h.Chat.Detail(c.Request().Context(), caller(c), id, all)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (h *handlers) renameConversation(c echo.Context) error {
	id, err := h.conversationID(c)
	if err != nil {
		return err
	}
	var req renameConversationRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	conv, err := h.Chat.Rename(c.Request().Context(), caller(c), id, *req.Title)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, conv)
}

func (h *handlers) deleteConversation(c echo.Context) error {
	id, err := h.conversationID(c)
	if err != nil {
		return err
	}
	err = h.Chat.Delete(c.Request().Context(), caller(c), id)
	h.record(c, audit.Event{Action: audit.Delete, Target: kindID("conversation", id)}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) exportConversation(c echo.Context) error {
	id, err := h.conversationID(c)
	if err != nil {
		return err
	}
	if f := c.QueryParam("format"); f != "" && f != "md" {
		return apierr.BadRequest(apierr.CodeInvalidFormat, "format must be md (Markdown), not %q", f)
	}
	md, name, err := h.Chat.Export(c.Request().Context(), caller(c), id)
	h.record(c, audit.Event{Action: audit.ConversationExport, Target: kindID("conversation", id)}, err)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(md))
}
