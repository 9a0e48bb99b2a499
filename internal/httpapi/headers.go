package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// Content policies. The web app is built by Vite into files under assets/
// with no inline script, so 'self' is all it needs, plus 'wasm-unsafe-eval'
// for the PDF viewer's WebAssembly image decoders (pdf.js's JPEG 2000, JBIG2
// and colour-profile code, served from assets/ too): it lets the page
// compile WebAssembly, never evaluate a string as script. Images come from the
// app itself, data: URIs, or blob: URLs of workspace files fetched with the
// bearer token. Markdown never loads remote images (see MarkdownView), and
// this policy stops one that slips through.
const (
	spaPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
		"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
	// API answers are data, never a page: nothing in them may run or load,
	// even a user's HTML or SVG file opened straight from /resources/raw.
	apiPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox"
)

// securityHeaders runs before routing, so unknown paths and errors carry
// the headers too.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if p := c.Request().URL.Path; p == "/api" || strings.HasPrefix(p, "/api/") || p == "/healthz" {
			h.Set("Content-Security-Policy", apiPolicy)
		} else {
			h.Set("Content-Security-Policy", spaPolicy)
		}
		return next(c)
	}
}
