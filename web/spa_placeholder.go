//go:build !embedspa

package web

import (
	"embed"
	"io/fs"
	"net/http"
)

// placeholder holds a page saying the app was not built, so go build and
// go test work without Node.
//
//go:embed placeholder
var placeholder embed.FS

// Handler serves the placeholder page; see spa_embed.go for the real app.
func Handler() http.Handler {
	sub, err := fs.Sub(placeholder, "placeholder")
	if err != nil {
		panic("web: placeholder missing from embed: " + err.Error())
	}
	return newHandler(sub)
}

// Embedded reports whether the real app is compiled in.
const Embedded = false
