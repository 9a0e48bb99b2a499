// Package tools holds the four knowledge tools (ls, read, search, status)
// and the searches behind them, on top of the tree's exported seam: every
// door (the agent, MCP, /command, REST search) runs them through a Service.
package tools

import "github.com/knowspace/knowspace/internal/knowledge"

// Service runs the tools over one tree.
type Service struct {
	*knowledge.Tree
}

// New builds the tools over tree.
func New(tree *knowledge.Tree) *Service { return &Service{Tree: tree} }
