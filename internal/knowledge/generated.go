package knowledge

import (
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// GeneratedRoot is the folder below each user's root that holds compile output.
const GeneratedRoot = "wiki"

// IsGenerated tells whether a node is a compile artifact: marked so by
// compile, or anywhere in the wiki folder.
func IsGenerated(n store.Node) bool {
	return n.Generated || IsGeneratedPath(n.Path)
}

// IsGeneratedPath tells whether a path below a user's root is in the wiki
// folder, for a node that may not exist yet.
func IsGeneratedPath(p string) bool {
	return p == GeneratedRoot || strings.HasPrefix(p, GeneratedRoot+"/")
}

// GeneratedReadOnly is the refusal of a change to the generated node at uri.
func GeneratedReadOnly(uri string) *apierr.Error {
	return apierr.Forbidden(apierr.CodeGeneratedReadOnly,
		"%s is made by compile and read-only: copy it to edit the copy, or edit its sources and compile again", uri).WithDetail("uri", uri)
}

// A generated file's bytes and place are the compiler's: its provenance
// vouches for exactly those bytes (their sources, model and prompt), and
// the next compile finds its output again by path. So the Tree refuses every change to a generated node but its
// deletion — a new version (upload over it, a version restored), a rename
// or move, being replaced by a move or copy — whichever door asks; the
// compiler writes through Publish, which versions them itself. Deleting
// one stays possible (to the trash, and the next compile makes it again);
// WebDAV refuses that too, so a sync client cannot wipe the wiki.
//
// GuardGenerated is that rule: it refuses changing n, in owner's tree,
// when compile made it.
func GuardGenerated(owner kb.Caller, n store.Node) error {
	if IsGenerated(n) {
		return GeneratedReadOnly(kb.NodeURI(owner.Username, n.Path, n.IsDir()))
	}
	return nil
}
