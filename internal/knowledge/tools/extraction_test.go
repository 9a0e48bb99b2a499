package tools

import (
	"context"
	"errors"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Documents stored before automatic extraction was on are marked once,
// when it is turned on; text files and parsed documents are not, and a
// second start marks nothing again.
func TestBackfillMarksOlderDocumentsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		ctx := context.Background()
		pdf := e.put(e.alice, "kb://me/d/", "old.pdf", []byte("%PDF-1.4 stored before"))
		md := e.put(e.alice, "kb://me/d/", "notes.md", []byte("plain text"))
		parsed := e.put(e.alice, "kb://me/d/", "parsed.pdf", []byte("%PDF-1.4 parsed"))
		e.putL2(e.alice, parsed, "already parsed text")
		node := func(uri string) store.Node {
			_, n, err := e.tree.Resolve(ctx, e.alice, uri)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if _, err := e.st.ExtractionOf(ctx, node(pdf).ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("marked without automatic extraction: %v", err)
		}
		notified := 0
		e.tree.AutoExtract(func() { notified++ })
		n, err := e.tree.BackfillExtractions(ctx)
		if err != nil || n != 1 || notified == 0 {
			t.Fatalf("backfill marked %d (notified %d): %v", n, notified, err)
		}
		if x, err := e.st.ExtractionOf(ctx, node(pdf).ID); err != nil || x.State != store.ExtractionPending {
			t.Fatalf("the older PDF: %+v %v", x, err)
		}
		for _, uri := range []string{md, parsed} {
			if _, err := e.st.ExtractionOf(ctx, node(uri).ID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s marked: %v", uri, err)
			}
		}
		if n, err := e.tree.BackfillExtractions(ctx); err != nil || n != 0 {
			t.Fatalf("a second backfill marked %d: %v", n, err)
		}
	})
}
