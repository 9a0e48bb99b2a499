package compile

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/extract"
)

// parse extracts the text of a source file; an extraction failure is
// permanent (the same bytes fail the same way), a cancelled context is not.
func parse(ctx context.Context, name string, raw []byte) (extract.Result, error) {
	res, err := extract.Extract(ctx, name, raw, extract.Limits{})
	var e *extract.Error
	if errors.As(err, &e) {
		return extract.Result{}, permanent(e.Code, "%s", e.Message)
	}
	return res, err
}
