package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestListCursorWalk walks a 250-item folder by cursor, 100 a page, with a
// file that sorts before the cursor arriving between pages: every item
// present at the start comes exactly once and in order.
func TestListCursorWalk(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mkdir(bob, "kb://me/big/")
		var files []upFile
		var want []string
		for i := 0; i < 250; i++ {
			name := fmt.Sprintf("f%03d.txt", i*2) // even numbers leave room before the cursor
			files = append(files, upFile{name, []byte("x")})
			want = append(want, name)
		}
		e.mustUpload(bob, "kb://me/big/", files...)

		var got []string
		cursor := ""
		pages := 0
		for {
			path := q("/api/v1/resources", "kb://me/big/", "limit", "100")
			if cursor != "" {
				path = q("/api/v1/resources", "kb://me/big/", "limit", "100", "cursor", cursor)
			}
			var l listingJSON
			e.mustOK(e.do("GET", path, bob, nil), 200, &l)
			pages++
			for _, it := range l.Items {
				got = append(got, it.Name)
			}
			if cursor != "" && l.NextOffset != nil {
				t.Fatalf("a cursor page gave next_offset %d", *l.NextOffset)
			}
			if cursor == "" && (l.NextOffset == nil || *l.NextOffset != 100) {
				t.Fatalf("first page next_offset %v, want 100", l.NextOffset)
			}
			if l.NextCursor == nil {
				if len(l.Items) != 51 {
					t.Fatalf("last page has %d items, want 51 (50 and f401.txt)", len(l.Items))
				}
				break
			}
			if len(l.Items) != 100 {
				t.Fatalf("page %d has %d items", pages, len(l.Items))
			}
			if pages == 1 {
				// f001.txt sorts before the cursor (after f198.txt): it must
				// not push f198.txt onto the next page.
				e.mustUpload(bob, "kb://me/big/", upFile{"f001.txt", []byte("new")})
			}
			if pages == 2 {
				// f401.txt sorts after the cursor: it is seen, once.
				e.mustUpload(bob, "kb://me/big/", upFile{"f401.txt", []byte("new")})
				want = append(want[:201], append([]string{"f401.txt"}, want[201:]...)...)
			}
			cursor = *l.NextCursor
		}
		if pages != 3 || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%d pages, %d items; got %v\nwant %v", pages, len(got), got, want)
		}

		// Offset still pages as before, and now sees the inserted file.
		var l listingJSON
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/big/", "offset", "250", "limit", "100"), bob, nil), 200, &l)
		if len(l.Items) != 2 || l.NextOffset != nil || l.NextCursor != nil || l.Items[0].Name != "f496.txt" {
			t.Fatalf("offset 250 of 252: %+v", l)
		}
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/big/", "offset", "100", "limit", "100"), bob, nil), 200, &l)
		if len(l.Items) != 100 || l.NextOffset == nil || *l.NextOffset != 200 || l.Items[0].Name != "f198.txt" {
			t.Fatalf("offset 100: first %q next_offset %v", l.Items[0].Name, l.NextOffset)
		}
		// An offset page's next_cursor continues right after it.
		var next listingJSON
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/big/", "cursor", *l.NextCursor, "limit", "1"), bob, nil), 200, &next)
		if len(next.Items) != 1 || next.Items[0].Name != "f398.txt" {
			t.Fatalf("after offset page: %+v", next.Items)
		}

		e.mkdir(bob, "kb://me/other/")
		e.mustUpload(bob, "kb://me/other/", upFile{"a.txt", []byte("x")}, upFile{"b.txt", []byte("x")})
		var other listingJSON
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/other/", "limit", "1"), bob, nil), 200, &other)
		if other.NextCursor == nil {
			t.Fatal("other folder: no next_cursor")
		}
		body, check, _ := strings.Cut(*other.NextCursor, ".")
		raw, err := base64.RawURLEncoding.DecodeString(body)
		if err != nil {
			t.Fatalf("cursor body: %v", err)
		}
		edited := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"a.txt"`, `"f300.txt"`, 1))) + "." + check
		if edited == *other.NextCursor {
			t.Fatalf("cursor %s does not hold the name", raw)
		}
		list := func(kv ...string) string { return q("/api/v1/resources", "kb://me/big/", kv...) }
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "cursor of another folder", Method: "GET", URL: list("cursor", *other.NextCursor), Token: bob, WantStatus: 400, WantCode: "invalid_cursor"},
			{Name: "garbage cursor", Method: "GET", URL: list("cursor", "not-a-cursor"), Token: bob, WantStatus: 400, WantCode: "invalid_cursor"},
			{Name: "bad base64", Method: "GET", URL: list("cursor", "!!!."+check), Token: bob, WantStatus: 400, WantCode: "invalid_cursor"},
			{Name: "edited cursor", Method: "GET", URL: q("/api/v1/resources", "kb://me/other/", "cursor", edited), Token: bob, WantStatus: 400, WantCode: "invalid_cursor"},
			{Name: "cursor with offset", Method: "GET", URL: list("cursor", cursor, "offset", "5"), Token: bob, WantStatus: 400, WantCode: "invalid_cursor"},
			{Name: "cursor of the last page", Method: "GET", URL: list("cursor", cursor, "limit", "1"), Token: bob, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var l listingJSON
					r.Decode(t, &l)
					if len(l.Items) != 1 || l.Items[0].Name != "f400.txt" || l.NextCursor == nil {
						t.Errorf("resume at the last page: %+v", l)
					}
				}},
		})
	})
}
