package httpapi

import (
	"github.com/labstack/echo/v4"
)

// capability is which credentials may reach a route. Sessions and unscoped
// API tokens reach every signed-in route; a scoped API token (one folder,
// read-only unless made with read_only:false) reaches only the routes
// declared for it, and the tree's authorizer then keeps it inside its
// folder.
type capability uint8

const (
	// undeclared is the zero value: a route missing from routeCapabilities
	// is treated as account-wide, so a forgotten line fails closed (and
	// TestEveryRouteDeclaresItsCapability fails).
	undeclared capability = iota
	// public routes need no credential at all.
	public
	// folderRead routes read or ask about what is in the caller's view;
	// every credential reaches them.
	folderRead
	// folderWrite routes change something; a read-only token is refused
	// 403 read_only, a read-write scoped token reaches them and the tree
	// keeps its change inside the scope.
	folderWrite
	// account routes manage what belongs to the whole account (tokens,
	// password, shares, skills, groups, administration); every scoped
	// token is refused 403 scoped_token, read-write or not.
	account
)

// routeCapabilities declares, for every route of the API by method and
// Echo path, which credentials may reach it. requireCapability enforces it.
var routeCapabilities = map[string]capability{
	"GET /healthz":                   public,
	"GET /readyz":                    public,
	"GET /api/v1/openapi.json":       public,
	"POST /api/v1/auth/login":        public,
	"GET /api/v1/auth/me":            folderRead,
	"POST /api/v1/auth/logout":       folderRead,
	"POST /api/v1/auth/logout-all":   account,
	"POST /api/v1/auth/password":     account,
	"POST /api/v1/auth/tokens":       account,
	"GET /api/v1/auth/tokens":        account,
	"DELETE /api/v1/auth/tokens/:id": account,
	// Group membership and the share picker's name lookup serve sharing,
	// which is the account's.
	"GET /api/v1/auth/groups":    account,
	"GET /api/v1/auth/directory": account,

	"POST /api/v1/admin/users":                         account,
	"GET /api/v1/admin/users":                          account,
	"PATCH /api/v1/admin/users/:id":                    account,
	"GET /api/v1/admin/groups":                         account,
	"POST /api/v1/admin/groups":                        account,
	"PATCH /api/v1/admin/groups/:id":                   account,
	"DELETE /api/v1/admin/groups/:id":                  account,
	"PUT /api/v1/admin/groups/:id/members/:user_id":    account,
	"DELETE /api/v1/admin/groups/:id/members/:user_id": account,
	"GET /api/v1/admin/tokens":                         account,
	"DELETE /api/v1/admin/tokens/:id":                  account,
	"GET /api/v1/admin/jobs":                           account,
	"POST /api/v1/admin/jobs/:id/cancel":               account,
	"GET /api/v1/admin/overview":                       account,

	"GET /api/v1/resources":                   folderRead,
	"POST /api/v1/resources/folders":          folderWrite,
	"POST /api/v1/resources/upload":           folderWrite,
	"POST /api/v1/resources/import":           folderWrite,
	"PUT /api/v1/resources/auto-compile":      folderWrite,
	"GET /api/v1/resources/auto-compile":      folderRead,
	"DELETE /api/v1/resources/auto-compile":   folderWrite,
	"PATCH /api/v1/resources":                 folderWrite,
	"POST /api/v1/resources/copy":             folderWrite,
	"DELETE /api/v1/resources":                folderWrite,
	"GET /api/v1/resources/content":           folderRead,
	"GET /api/v1/resources/raw":               folderRead,
	"GET /api/v1/resources/page-image":        folderRead,
	"GET /api/v1/resources/versions":          folderRead,
	"POST /api/v1/resources/versions/restore": folderWrite,
	"POST /api/v1/resources/shares":           account,
	"GET /api/v1/resources/shares":            account,
	"PATCH /api/v1/resources/shares/:id":      account,
	"DELETE /api/v1/resources/shares/:id":     account,
	"GET /api/v1/trash":                       folderRead,
	"POST /api/v1/trash/restore":              folderWrite,
	"DELETE /api/v1/trash/:id":                folderWrite,
	"DELETE /api/v1/trash":                    folderWrite,
	"GET /api/v1/search":                      folderRead,
	"POST /api/v1/knowledge-agent/command":    folderRead,

	"GET /api/v1/knowledge-agent/options":                   folderRead,
	"POST /api/v1/knowledge-agent/models/:id/check":         folderRead,
	"POST /api/v1/knowledge-agent/cli-profiles/:name/check": folderRead,
	"POST /api/v1/knowledge-agent/stream":                   folderRead,
	"POST /api/v1/knowledge-agent/conversations":            folderRead,
	"GET /api/v1/knowledge-agent/conversations":             folderRead,
	"GET /api/v1/knowledge-agent/conversations/:id":         folderRead,
	"PATCH /api/v1/knowledge-agent/conversations/:id":       folderWrite,
	"DELETE /api/v1/knowledge-agent/conversations/:id":      folderWrite,
	"GET /api/v1/knowledge-agent/conversations/:id/export":  folderRead,

	// Skills are the account's: one changed by a folder's token would
	// change every later compile of the owner's.
	"GET /api/v1/knowledge-agent/skills":           account,
	"POST /api/v1/knowledge-agent/skills":          account,
	"POST /api/v1/knowledge-agent/skills/generate": account,
	"POST /api/v1/knowledge-agent/skills/preview":  account,
	"GET /api/v1/knowledge-agent/skills/:id":       account,
	"PATCH /api/v1/knowledge-agent/skills/:id":     account,
	"DELETE /api/v1/knowledge-agent/skills/:id":    account,

	"POST /api/v1/knowledge-agent/compile": folderWrite,
	"GET /api/v1/jobs":                     folderRead,
	"GET /api/v1/jobs/:id":                 folderRead,
	"POST /api/v1/jobs/:id/cancel":         folderWrite,
	"POST /api/v1/jobs/:id/retry":          folderWrite,

	// The API's own 404 for an unknown path: it reveals nothing.
	"ANY /api/v1/*": folderRead,
	// The web app and the metadata probes' 404 carry no data.
	"GET /*":             public,
	"ANY /.well-known/*": public,
}

// capabilityOf is the declaration of the route c was routed to.
func capabilityOf(c echo.Context) capability {
	if k, ok := routeCapabilities[c.Request().Method+" "+c.Path()]; ok {
		return k
	}
	return routeCapabilities["ANY "+c.Path()]
}

// requireCapability refuses a credential that its route's declaration does
// not admit; it runs after requireAuth on every signed-in route. The other
// front doors (MCP, WebDAV, /v1) are mounts with their own authentication
// that read the tree and run turns, never the account's routes; the tree
// keeps their scoped callers inside the scope.
func requireCapability(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := currentPrincipal(c)
		switch capabilityOf(c) {
		case public, folderRead:
		case folderWrite:
			if err := p.RequireWritable(); err != nil {
				return err
			}
		default:
			if err := p.RequireUnscoped(); err != nil {
				return err
			}
		}
		return next(c)
	}
}
