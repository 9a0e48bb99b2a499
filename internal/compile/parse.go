package compile

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/extract"
)

// parse extracts the text of a source file, in the isolation child when a
// format parser reads it. Every extraction failure is
// permanent — the same bytes fail the same way, a hang included, so a
// retry would only pin a worker again — while a cancelled context is not a
// failure of the file.
func (s *Service) parse(ctx context.Context, name string, raw []byte) (extract.Result, error) {
	var (
		res extract.Result
		err error
	)
	if s.extract != nil && extract.HasParser(name) {
		res, err = s.extract.Run(ctx, name, raw)
	} else {
		res, err = extract.Extract(ctx, name, raw, extract.Limits{})
	}
	var e *extract.Error
	if errors.As(err, &e) {
		return extract.Result{}, permanent(e.Code, "%s", e.Message)
	}
	return res, err
}
