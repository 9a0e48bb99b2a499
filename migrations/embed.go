// Package migrations holds the SQL schema per dialect, embedded in the binary
// and applied at start by goose.
package migrations

import "embed"

// FS holds sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS
