package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// LatestBodies names its columns to leave page_starts out: it must still
// return every other field a version has, so a column added later and
// forgotten there fails here; PageStartsOf reads what it left out.
func TestLatestBodiesLeavesOnlyPageStartsOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		u, nodes := walkFixture(t, st, "alice", []string{"book.pdf"})
		n := nodes["book.pdf"]
		raw := store.FileVersion{NodeID: n.ID, Body: store.BodyRaw, BlobHash: "h1", Size: 9, MediaType: "application/pdf", Encoding: "x", AuthorID: &u.ID}
		if err := st.AddVersion(ctx, &raw); err != nil {
			t.Fatal(err)
		}
		how := `{"format":"pdf"}`
		l2 := store.FileVersion{NodeID: n.ID, Body: store.BodyL2, BlobHash: "h2", Size: 5, IsText: true, CharCount: 5,
			SourceVersionID: &raw.ID, ExtractionJSON: &how, PageStarts: "1:0,2:3"}
		if err := st.AddVersion(ctx, &l2); err != nil {
			t.Fatal(err)
		}
		all, err := st.VersionsOf(ctx, []int64{n.ID})
		if err != nil || len(all) != 2 {
			t.Fatalf("versions %v %v", all, err)
		}
		latest, err := st.LatestBodies(ctx, []int64{n.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, full := range all {
			got := latest[n.ID][full.Body]
			if got.PageStarts != "" {
				t.Errorf("%s: a listing loaded the page starts", full.Body)
			}
			got.PageStarts = full.PageStarts
			if !got.CreatedAt.Equal(full.CreatedAt) {
				t.Errorf("%s: created %v, want %v", full.Body, got.CreatedAt, full.CreatedAt)
			}
			got.CreatedAt = full.CreatedAt
			if fmtVersion(got) != fmtVersion(full) {
				t.Errorf("%s: LatestBodies\n%s\nwant\n%s", full.Body, fmtVersion(got), fmtVersion(full))
			}
		}
		if col, err := st.PageStartsOf(ctx, l2.ID); err != nil || col != "1:0,2:3" {
			t.Fatalf("page starts %q %v", col, err)
		}
	})
}

// fmtVersion shows a version's fields with pointers followed.
func fmtVersion(v store.FileVersion) string {
	b, _ := json.Marshal(v)
	return string(b)
}
