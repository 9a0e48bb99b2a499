package knowledge

import "context"

// Meaning is the embedding model of meaning search (package embed's
// client): the vector space its vectors lie in, and vectors of texts.
// Without one, meaning and hybrid searches are refused.
type Meaning interface {
	ID() string
	Key(ctx context.Context) (string, error)
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	BatchSize() int
}

// Switchable is a Meaning an admin may swap at run time, and may leave
// with no model in use.
type Switchable interface {
	InUse() bool
}

// SetMeaning makes m the tree's embedding model.
func (t *Tree) SetMeaning(m Meaning) { t.meaning = m }

// Meaning is the tree's embedding model, nil when none is configured or
// in use.
func (t *Tree) Meaning() Meaning {
	if s, ok := t.meaning.(Switchable); ok && !s.InUse() {
		return nil
	}
	return t.meaning
}
