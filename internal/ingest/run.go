package ingest

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// finishTimeout bounds the writes that record an outcome after the
// worker's own context may have ended.
const finishTimeout = 10 * time.Second

// run extracts one claimed document. Storing its text removes the mark in
// the same write (knowledge's markExtractions); a failure is recorded with
// its reason; a stop puts it back.
func (s *Service) run(ctx context.Context, e store.Extraction) {
	start := time.Now()
	err := s.extract(ctx, e)
	if err == nil {
		slog.Info("extracted", "node", e.NodeID, "took", time.Since(start).Round(time.Millisecond))
		return
	}
	rec, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	var xe *extract.Error
	switch {
	case errors.As(err, &xe):
		err = s.o.Store.FailExtraction(rec, e, xe.Code, xe.Message)
	case ctx.Err() != nil:
		err = s.o.Store.ReleaseExtraction(rec, e)
	case errors.Is(err, store.ErrNotFound):
		// Deleted meanwhile, its mark with it (nothing to update); or
		// without a stored upload, which no retry would find.
		err = s.o.Store.FailExtraction(rec, e, "not_found", "the file has no stored upload to extract")
	case e.Attempts >= maxAttempts:
		slog.Warn("extraction failed", "node", e.NodeID, "err", err)
		err = s.o.Store.FailExtraction(rec, e, "internal", "the text could not be extracted; upload the file again to retry")
	default:
		slog.Warn("extraction failed; it will be tried again", "node", e.NodeID, "attempt", e.Attempts, "err", err)
		err = s.o.Store.ReleaseExtraction(rec, e)
	}
	if err != nil {
		slog.Warn("record extraction outcome", "node", e.NodeID, "err", err)
	}
}

func (s *Service) extract(ctx context.Context, e store.Extraction) error {
	n, err := s.o.Store.NodeByID(ctx, e.UserID, e.NodeID)
	if err != nil {
		return err
	}
	if e.Attempts > maxAttempts {
		return &extract.Error{Code: "interrupted", Message: "extraction was interrupted too often; upload the file again to retry"}
	}
	raw, v, ok, err := s.o.Tree.RawBody(ctx, n, s.o.MaxBytes)
	if err != nil {
		return err
	}
	if !ok {
		return &extract.Error{Code: "too_large", Message: "the file is larger than the upload limit the extraction reads"}
	}
	// A long scan says how far it has come, for the tree and the agent.
	report := func(p extract.Progress) {
		if err := s.o.Store.ReportExtraction(ctx, e, p.Pages, p.Of); err != nil && ctx.Err() == nil {
			slog.Warn("record extraction progress", "node", e.NodeID, "err", err)
		}
	}
	var res extract.Result
	if s.o.Extraction != nil && extract.HasParser(n.Name) {
		res, err = s.o.Extraction.RunReporting(ctx, n.Name, raw, report)
	} else {
		res, err = extract.Extract(ctx, n.Name, raw, extract.Limits{Progress: report})
	}
	if err != nil {
		return err
	}
	_, _, err = s.o.Tree.SaveL2(ctx, n, res, v)
	return err
}
