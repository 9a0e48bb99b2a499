// Package httpapi wires the REST API: one file lists every route, handlers
// bind and validate requests and call the domain services.
package httpapi

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/httpapi/openapi"
	"github.com/knowspace/knowspace/internal/importer"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/sso"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/turn"
	"github.com/knowspace/knowspace/internal/usage"
)

// Deps are the services the API calls.
type Deps struct {
	Store *store.Store
	Auth  *auth.Service
	Tree  *knowledge.Tree
	SPA   http.Handler // the web app, served for every non-API path
	// Models is the LLM registry; nil or empty means chat is unavailable.
	Models *llm.Registry
	// Catalog keeps the models added in the admin screens; nil answers
	// their routes 503. Its live registry is the one to pass as Models.
	Catalog *catalog.Service
	// Embedding is the embedder of meaning search (nil without an
	// embedding model): the admin overview says why it last paused.
	Embedding interface{ LastError() string }
	// Chat keeps conversations; nil means the server stores none
	// (conversations: {store: false}) and history lives in the page.
	Chat *chat.Service
	// Compile runs compile requests and the jobs API; nil answers 503.
	Compile *compile.Service
	// Import queues archive imports on Compile's queue; nil answers 503.
	Import *importer.Service
	// Workers is how many compile workers this replica is configured to
	// run (0 on an API-only replica); /readyz waits for them.
	Workers int
	// OCR is the extraction's OCR configuration, reported by /readyz.
	OCR extract.OCR
	// Space is the disk /readyz watches; the zero value watches none.
	Space Space
	// Pages draws the pages of PDFs for the preview; nil answers 503.
	Pages PageRenderer
	// Skills keeps compile skills; nil builds one on Store, Tree and
	// Models. Pass the one Compile resolves skills with.
	Skills *skill.Service
	// Shutdown closes when the server stops, ending open streams first.
	Shutdown <-chan struct{}
	// StreamsPerUser caps one user's open chat streams (default 4); used
	// only when Turns is nil.
	StreamsPerUser int
	// Turns runs agent turns; nil builds one on Tree, Chat and
	// StreamsPerUser. Pass the one the other front doors use, so the
	// stream limit counts every door.
	Turns *turn.Service
	// Timeouts bound slow clients; pass the same to NewServer.
	Timeouts Timeouts
	// MaxUploadRequest caps a whole upload request, all parts together;
	// zero means no cap beyond the per-file limit times MaxUploadFiles.
	MaxUploadRequest int64
	// TrustedProxies are the socket peers whose X-Forwarded-For names the
	// client; empty trusts no one, so a direct client cannot pick the
	// address the login throttle and the request log see.
	TrustedProxies []*net.IPNet
	// Mounts are the other front doors (MCP, the OpenAI-compatible
	// endpoint, WebDAV): each owns its path and below, authenticates its
	// own way and calls the same domain services.
	Mounts []Mount
	// Usage keeps and reports model usage; nil answers 503.
	Usage *usage.Meter
	// Budgets limit model usage; nil sets none (and the budget routes
	// answer 503).
	Budgets *usage.Budgets
	// SSO is the configured identity providers; nil offers none.
	SSO *sso.Service
	// PasswordLoginOff hides and refuses the user name and password form
	// (auth.password_login: false and no directory).
	PasswordLoginOff bool
	// Audit records security-relevant actions; nil records through the
	// auth service's recorder.
	Audit *audit.Recorder
}

// Mount serves Handler at Path and every path below it.
type Mount struct {
	Path    string // "/mcp", "/v1"
	Handler http.Handler
	// Methods are methods to route beyond Echo's Any (WebDAV's MKCOL,
	// COPY, MOVE, LOCK…).
	Methods []string
	// Streaming lifts the whole-body time cap, as for uploads: a WebDAV
	// PUT is a file of any size.
	Streaming bool
}

// New builds the Echo instance with every route.
func New(d Deps) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = clientAddrExtractor(d.TrustedProxies)
	e.HTTPErrorHandler = errorHandler
	e.Pre(securityHeaders)
	e.Use(requestLog)
	e.Use(auditActor)
	e.Use(bodyDeadlines(d.Timeouts))
	e.Use(writeDeadlines(d.Timeouts))

	if d.Skills == nil {
		d.Skills = &skill.Service{Store: d.Store, Tree: d.Tree, Models: d.Models}
	}
	if d.Audit == nil {
		d.Audit = d.Auth.Audit()
	}
	if d.Turns == nil {
		d.Turns = turn.New(d.Tree, d.Chat, d.StreamsPerUser)
		d.Turns.Shutdown = d.Shutdown
		if d.Budgets != nil {
			d.Turns.Budget = d.Budgets
		}
	}
	h := &handlers{Deps: d,
		checks:  newRateLimiter(checksPerMinute, time.Minute, "a minute"),
		renders: newRenderSlots(runtime.GOMAXPROCS(0))}
	e.GET("/healthz", h.health)
	e.GET("/readyz", h.ready)

	api := e.Group("/api/v1")
	api.GET("/openapi.json", serveOpenAPI)
	api.POST("/auth/login", h.login)
	api.GET("/auth/sign-in-options", h.signInOptions)
	api.GET("/auth/sso/:id/start", h.ssoStart)
	api.GET("/auth/sso/:id/callback", h.ssoCallback)
	api.POST("/auth/sso/redeem", h.ssoRedeem)

	// Which credentials reach each route is declared in
	// token_capabilities.go; a route missing there fails a test.
	authed := api.Group("", h.requireAuth, requireCapability)
	authed.GET("/auth/me", h.me)
	authed.POST("/auth/logout", h.logout)
	authed.POST("/auth/logout-all", h.logoutAll)
	authed.POST("/auth/password", h.changePassword)
	authed.POST("/auth/tokens", h.createToken)
	authed.GET("/auth/tokens", h.listTokens)
	authed.GET("/auth/groups", h.myGroups)
	authed.GET("/usage", h.myUsage)
	authed.GET("/usage/budgets", h.myBudgets)
	authed.GET("/auth/directory", h.directory)
	authed.GET("/auth/audit", h.ownAudit)
	authed.DELETE("/auth/tokens/:id", h.revokeToken)

	admin := authed.Group("/admin", requireAdmin)
	admin.GET("/usage", h.adminUsage)
	admin.GET("/budgets", h.listBudgets)
	admin.PUT("/budgets", h.putBudget)
	admin.DELETE("/budgets/:id", h.deleteBudget)
	admin.POST("/users", h.createUser)
	admin.GET("/users", h.listUsers)
	admin.PATCH("/users/:id", h.updateUser)
	admin.GET("/groups", h.listGroups)
	admin.POST("/groups", h.createGroup)
	admin.PATCH("/groups/:id", h.renameGroup)
	admin.DELETE("/groups/:id", h.deleteGroup)
	admin.PUT("/groups/:id/members/:user_id", h.addMember)
	admin.DELETE("/groups/:id/members/:user_id", h.removeMember)
	admin.GET("/tokens", h.listAllTokens)
	admin.DELETE("/tokens/:id", h.revokeAnyToken)
	admin.GET("/jobs", h.listAllJobs)
	admin.POST("/jobs/:id/cancel", h.cancelAnyJob)
	admin.GET("/overview", h.overview)
	admin.POST("/eval-search", h.evalSearch)
	admin.GET("/audit", h.listAudit)
	admin.GET("/audit/export", h.exportAudit)
	admin.GET("/models", h.listAdminModels)
	admin.POST("/models", h.createAdminModel)
	admin.POST("/models/check", h.checkAdminModel)
	admin.PUT("/models/embedding-in-use", h.useEmbeddingModel)
	admin.PATCH("/models/:id", h.updateAdminModel)
	admin.DELETE("/models/:id", h.deleteAdminModel)

	authed.GET("/resources", h.listResources)
	authed.POST("/resources/folders", h.createFolder)
	authed.POST("/resources/upload", h.upload, streamingBody)
	authed.POST("/resources/import", h.importArchive, streamingBody)
	authed.PUT("/resources/auto-compile", h.putAutoCompile)
	authed.GET("/resources/auto-compile", h.getAutoCompile)
	authed.DELETE("/resources/auto-compile", h.deleteAutoCompile)
	authed.PATCH("/resources", h.moveResource)
	authed.POST("/resources/copy", h.copyResource)
	authed.DELETE("/resources", h.deleteResource)
	authed.GET("/resources/content", h.readContent)
	authed.GET("/resources/raw", h.downloadRaw)
	authed.GET("/resources/page-image", h.pageImage)
	authed.GET("/resources/versions", h.listVersions)
	authed.POST("/resources/shares", h.createShare)
	authed.GET("/resources/shares", h.listShares)
	authed.PATCH("/resources/shares/:id", h.updateShare)
	authed.DELETE("/resources/shares/:id", h.deleteShare)
	authed.POST("/resources/versions/restore", h.restoreVersion)
	authed.GET("/trash", h.listTrash)
	authed.POST("/trash/restore", h.restoreTrash)
	authed.DELETE("/trash/:id", h.purgeTrashItem)
	authed.DELETE("/trash", h.emptyTrash)
	authed.GET("/search", h.search)
	authed.POST("/knowledge-agent/command", h.runCommand)

	authed.GET("/knowledge-agent/options", h.options)
	authed.POST("/knowledge-agent/models/:id/check", h.checkModel)
	authed.POST("/knowledge-agent/cli-profiles/:name/check", h.checkCLIProfile)
	authed.POST("/knowledge-agent/stream", h.stream)
	authed.GET("/knowledge-agent/stream/:id", h.followTurn)
	authed.POST("/knowledge-agent/stream/:id/stop", h.stopTurn)
	authed.POST("/knowledge-agent/conversations", h.createConversation)
	authed.GET("/knowledge-agent/conversations", h.listConversations)
	authed.GET("/knowledge-agent/conversations/:id", h.getConversation)
	authed.PATCH("/knowledge-agent/conversations/:id", h.renameConversation)
	authed.DELETE("/knowledge-agent/conversations/:id", h.deleteConversation)
	authed.GET("/knowledge-agent/conversations/:id/export", h.exportConversation)

	authed.GET("/knowledge-agent/skills", h.listSkills)
	authed.POST("/knowledge-agent/skills", h.createSkill)
	authed.POST("/knowledge-agent/skills/generate", h.generateSkill)
	authed.POST("/knowledge-agent/skills/preview", h.previewSkill)
	authed.GET("/knowledge-agent/skills/:id", h.getSkill)
	authed.PATCH("/knowledge-agent/skills/:id", h.updateSkill)
	authed.DELETE("/knowledge-agent/skills/:id", h.deleteSkill)

	authed.POST("/knowledge-agent/compile", h.compile)
	authed.GET("/jobs", h.listJobs)
	authed.GET("/jobs/:id", h.jobAction(getJob))
	authed.POST("/jobs/:id/cancel", h.jobAction(cancelJob))
	authed.POST("/jobs/:id/retry", h.jobAction(retryJob))

	api.Any("/*", func(c echo.Context) error {
		return apierr.NotFound(apierr.CodeNoRoute, "no API endpoint %s %s", c.Request().Method, c.Request().URL.Path)
	}, h.requireAuth)
	for _, m := range d.Mounts {
		var mw []echo.MiddlewareFunc
		if m.Streaming {
			mw = append(mw, streamingBody)
		}
		h := echo.WrapHandler(m.Handler)
		e.Any(m.Path, h, mw...)
		e.Any(m.Path+"/*", h, mw...)
		if len(m.Methods) > 0 {
			e.Match(m.Methods, m.Path, h, mw...)
			e.Match(m.Methods, m.Path+"/*", h, mw...)
		}
	}
	// Clients probe /.well-known/ for OAuth and other metadata; the web
	// app's index.html there would read as a malformed answer.
	e.Any("/.well-known/*", func(c echo.Context) error {
		return apierr.NotFound(apierr.CodeNoRoute, "nothing is published at %s", c.Request().URL.Path)
	})
	// Scrapers pointed at the API port by mistake would read the web app's
	// page as a malformed exposition; say where the metrics are instead.
	e.RouteNotFound("/metrics", func(c echo.Context) error {
		return apierr.NotFound(apierr.CodeNoRoute, "metrics are served on their own address (metrics_listen, KB_METRICS_LISTEN), not on the API port")
	})
	if d.SPA != nil {
		e.GET("/*", echo.WrapHandler(d.SPA))
	}
	return e
}

type handlers struct {
	Deps
	checks  *rateLimiter // model and CLI profile checks, per user
	renders *renderSlots // page images drawn at once: one per core, half of them per user
}

func (h *handlers) health(c echo.Context) error {
	if err := h.Store.Ping(c.Request().Context()); err != nil {
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeUnavailable, "the database is not reachable").WithCause(err)
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "database": h.Store.Dialect()})
}

// serveOpenAPI answers the API's own description (internal/httpapi/openapi);
// every route added above is documented there, or a test fails.
func serveOpenAPI(c echo.Context) error {
	doc, err := openapi.JSON()
	if err != nil {
		return apierr.Internal("build openapi document", err)
	}
	return c.JSONBlob(http.StatusOK, doc)
}

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// errorHandler writes every failure as {"error":{"code","message"}}; causes
// go to the log, never to the client.
func errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if _, ok := apierr.As(err); !ok && errors.As(err, &he) {
		err = fromEcho(he)
	}
	e := apierr.From(err)
	if e.Status >= 500 {
		slog.Error("request failed", append([]any{"request_id", currentRequestID(c), "method", c.Request().Method, "route", c.Path(),
			"code", e.Code, "err", err}, observe.NoSpaceAttrs(err)...)...)
	} else if e.Cause != nil {
		slog.Debug("request refused", "request_id", currentRequestID(c), "route", c.Path(), "code", e.Code, "cause", e.Cause)
	}
	if e.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.Status)
		return
	}
	if len(e.Details) > 0 {
		obj := map[string]any{}
		for k, v := range e.Details {
			obj[k] = v
		}
		obj["code"], obj["message"] = e.Code, e.Message
		_ = c.JSON(e.Status, map[string]any{"error": obj})
		return
	}
	var body errorBody
	body.Error.Code, body.Error.Message = e.Code.String(), e.Message
	_ = c.JSON(e.Status, body)
}

func fromEcho(he *echo.HTTPError) *apierr.Error {
	switch he.Code {
	case http.StatusNotFound:
		return apierr.NotFound(apierr.CodeNoRoute, "no such endpoint")
	case http.StatusMethodNotAllowed:
		return apierr.New(he.Code, apierr.CodeMethodNotAllowed, "method not allowed on this endpoint")
	case http.StatusRequestEntityTooLarge:
		return apierr.TooLarge(apierr.CodeBodyTooLarge, "the request body is too large")
	case http.StatusUnauthorized:
		return apierr.Unauthorized(apierr.CodeMissingToken, "sign in first")
	}
	if he.Code >= 500 {
		return apierr.Internal("echo", he)
	}
	return apierr.New(he.Code, apierr.CodeInvalidRequest, "%s", http.StatusText(he.Code))
}
