package knowledge

// The external tests in this folder check the tree through the tools, which
// import this package; they build their trees with the same helpers.
var (
	NewTestTree = newTestTree
	MustUpload  = mustUpload
	WantCode    = wantCode
)
