package httpapi

import (
	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/access"
)

// routeCapabilities declares, for every route of the API by method and
// Echo path, which credentials may reach it. requireCapability enforces it.
var routeCapabilities = map[string]access.Capability{
	"GET /healthz":             access.Public,
	"GET /readyz":              access.Public,
	"GET /api/v1/openapi.json": access.Public,
	"POST /api/v1/auth/login":  access.Public,
	// Single sign-on: the providers on offer, the way to and back from one,
	// and the trade of its one-time ticket for a session.
	"GET /api/v1/auth/sign-in-options":  access.Public,
	"GET /api/v1/auth/sso/:id/start":    access.Public,
	"GET /api/v1/auth/sso/:id/callback": access.Public,
	"POST /api/v1/auth/sso/redeem":      access.Public,
	"GET /api/v1/auth/me":               access.FolderRead,
	"POST /api/v1/auth/logout":          access.FolderRead,
	"POST /api/v1/auth/logout-all":      access.Account,
	"POST /api/v1/auth/password":        access.Account,
	"POST /api/v1/auth/tokens":          access.Account,
	"GET /api/v1/auth/tokens":           access.Account,
	"DELETE /api/v1/auth/tokens/:id":    access.Account,
	// Group membership and the share picker's name lookup serve sharing,
	// which is the account's.
	"GET /api/v1/auth/groups":    access.Account,
	"GET /api/v1/auth/directory": access.Account,
	// What the account's models cost is the account's.
	"GET /api/v1/usage":                access.Account,
	"GET /api/v1/admin/usage":          access.Account,
	"GET /api/v1/usage/budgets":        access.Account,
	"GET /api/v1/admin/budgets":        access.Account,
	"PUT /api/v1/admin/budgets":        access.Account,
	"DELETE /api/v1/admin/budgets/:id": access.Account,
	"GET /api/v1/auth/audit":           access.Account,

	"POST /api/v1/admin/users":                         access.Account,
	"GET /api/v1/admin/users":                          access.Account,
	"PATCH /api/v1/admin/users/:id":                    access.Account,
	"GET /api/v1/admin/groups":                         access.Account,
	"POST /api/v1/admin/groups":                        access.Account,
	"PATCH /api/v1/admin/groups/:id":                   access.Account,
	"DELETE /api/v1/admin/groups/:id":                  access.Account,
	"PUT /api/v1/admin/groups/:id/members/:user_id":    access.Account,
	"DELETE /api/v1/admin/groups/:id/members/:user_id": access.Account,
	"GET /api/v1/admin/tokens":                         access.Account,
	"DELETE /api/v1/admin/tokens/:id":                  access.Account,
	"GET /api/v1/admin/jobs":                           access.Account,
	"POST /api/v1/admin/jobs/:id/cancel":               access.Account,
	"GET /api/v1/admin/overview":                       access.Account,
	"POST /api/v1/admin/eval-search":                   access.Account,
	"GET /api/v1/admin/audit":                          access.Account,
	"GET /api/v1/admin/audit/export":                   access.Account,
	"GET /api/v1/admin/models":                         access.Account,
	"POST /api/v1/admin/models":                        access.Account,
	"POST /api/v1/admin/models/check":                  access.Account,
	"PUT /api/v1/admin/models/embedding-in-use":        access.Account,
	"PATCH /api/v1/admin/models/:id":                   access.Account,
	"DELETE /api/v1/admin/models/:id":                  access.Account,

	"GET /api/v1/resources":                   access.FolderRead,
	"POST /api/v1/resources/folders":          access.FolderWrite,
	"POST /api/v1/resources/upload":           access.FolderWrite,
	"POST /api/v1/resources/import":           access.FolderWrite,
	"PUT /api/v1/resources/auto-compile":      access.FolderWrite,
	"GET /api/v1/resources/auto-compile":      access.FolderRead,
	"DELETE /api/v1/resources/auto-compile":   access.FolderWrite,
	"PATCH /api/v1/resources":                 access.FolderWrite,
	"POST /api/v1/resources/copy":             access.FolderWrite,
	"DELETE /api/v1/resources":                access.FolderWrite,
	"GET /api/v1/resources/content":           access.FolderRead,
	"GET /api/v1/resources/raw":               access.FolderRead,
	"GET /api/v1/resources/page-image":        access.FolderRead,
	"GET /api/v1/resources/versions":          access.FolderRead,
	"POST /api/v1/resources/versions/restore": access.FolderWrite,
	"POST /api/v1/resources/shares":           access.Account,
	"GET /api/v1/resources/shares":            access.Account,
	"PATCH /api/v1/resources/shares/:id":      access.Account,
	"DELETE /api/v1/resources/shares/:id":     access.Account,
	"GET /api/v1/trash":                       access.FolderRead,
	"POST /api/v1/trash/restore":              access.FolderWrite,
	"DELETE /api/v1/trash/:id":                access.FolderWrite,
	"DELETE /api/v1/trash":                    access.FolderWrite,
	"GET /api/v1/search":                      access.FolderRead,
	"POST /api/v1/knowledge-agent/command":    access.FolderRead,

	"GET /api/v1/knowledge-agent/options":                   access.FolderRead,
	"POST /api/v1/knowledge-agent/models/:id/check":         access.FolderRead,
	"POST /api/v1/knowledge-agent/cli-profiles/:name/check": access.FolderRead,
	"POST /api/v1/knowledge-agent/stream":                   access.FolderRead,
	"GET /api/v1/knowledge-agent/stream/:id":                access.FolderRead,
	"POST /api/v1/knowledge-agent/stream/:id/stop":          access.FolderRead,
	"POST /api/v1/knowledge-agent/conversations":            access.FolderRead,
	"GET /api/v1/knowledge-agent/conversations":             access.FolderRead,
	"GET /api/v1/knowledge-agent/conversations/:id":         access.FolderRead,
	"PATCH /api/v1/knowledge-agent/conversations/:id":       access.FolderWrite,
	"DELETE /api/v1/knowledge-agent/conversations/:id":      access.FolderWrite,
	"GET /api/v1/knowledge-agent/conversations/:id/export":  access.FolderRead,

	// Skills are the account's: one changed by a folder's token would
	// change every later compile of the owner's.
	"GET /api/v1/knowledge-agent/skills":           access.Account,
	"POST /api/v1/knowledge-agent/skills":          access.Account,
	"POST /api/v1/knowledge-agent/skills/generate": access.Account,
	"POST /api/v1/knowledge-agent/skills/preview":  access.Account,
	"GET /api/v1/knowledge-agent/skills/:id":       access.Account,
	"PATCH /api/v1/knowledge-agent/skills/:id":     access.Account,
	"DELETE /api/v1/knowledge-agent/skills/:id":    access.Account,

	"POST /api/v1/knowledge-agent/compile": access.FolderWrite,
	"GET /api/v1/jobs":                     access.FolderRead,
	"GET /api/v1/jobs/:id":                 access.FolderRead,
	"POST /api/v1/jobs/:id/cancel":         access.FolderWrite,
	"POST /api/v1/jobs/:id/retry":          access.FolderWrite,

	// The API's own 404 for an unknown path: it reveals nothing.
	"ANY /api/v1/*": access.FolderRead,
	// The web app and the metadata probes' 404 carry no data.
	"GET /*":             access.Public,
	"ANY /.well-known/*": access.Public,
}

// capabilityOf is the declaration of the route c was routed to.
func capabilityOf(c echo.Context) access.Capability {
	if k, ok := routeCapabilities[c.Request().Method+" "+c.Path()]; ok {
		return k
	}
	return routeCapabilities["ANY "+c.Path()]
}

// requireCapability refuses a credential that its route's declaration does
// not admit (access.Allow: the rule for tokens, with a route missing from
// routeCapabilities taken as account-wide); it runs after requireAuth on every signed-in route. The other
// front doors (MCP, WebDAV, /v1) are mounts with their own authentication
// that read the tree and run turns, never the account's routes; the tree
// keeps their scoped callers inside the scope.
func requireCapability(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := access.Allow(currentPrincipal(c).Caller(), capabilityOf(c), ""); err != nil {
			return err
		}
		return next(c)
	}
}
