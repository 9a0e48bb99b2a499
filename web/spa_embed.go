//go:build embedspa

package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed all:dist
var dist embed.FS

// Handler serves the built single-page app from web/dist.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: dist missing from embed: " + err.Error())
	}
	return newHandler(sub)
}

// Embedded reports whether the real app is compiled in.
const Embedded = true
