package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestToolLsCursor pages ls by next_cursor while a file that sorts before
// the cursor arrives, then continues the same walk as a /ls command.
func TestToolLsCursor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		var want []string
		for i := 0; i < 7; i++ {
			name := fmt.Sprintf("n%02d.md", i*2)
			e.put(e.alice, "kb://me/d/", name, []byte(name))
			want = append(want, name)
		}
		e.mkdir(e.alice, "kb://me/d/sub/")
		want = append([]string{"sub"}, want...)

		first := e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "limit": 3})
		l := first.Value.(*LsResult)
		if l.NextCursor == nil || l.NextOffset == nil || *l.NextOffset != 3 || !strings.Contains(first.Summary, "next_cursor") {
			t.Fatalf("first page: %+v %q", l, first.Summary)
		}
		got := lsNames(first)
		// n01.md sorts before the cursor (after n02.md): neither repeated nor shifting n04.md away.
		e.put(e.alice, "kb://me/d/", "n01.md", []byte("late"))
		cursor := *l.NextCursor
		pages := 1
		for {
			r := e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "cursor": cursor, "limit": 3})
			pages++
			got = append(got, lsNames(r)...)
			p := r.Value.(*LsResult)
			if p.NextOffset != nil {
				t.Fatalf("cursor page with next_offset %d", *p.NextOffset)
			}
			if p.NextCursor == nil {
				break
			}
			if r.Summary != "3 items (0 folders, 3 files); more from next_cursor" {
				t.Fatalf("summary %q", r.Summary)
			}
			cursor = *p.NextCursor
		}
		if pages != 3 || !slices.Equal(got, want) {
			t.Fatalf("%d pages: %v, want %v", pages, got, want)
		}

		// The /ls command takes the same cursor.
		cmd := fmt.Sprintf(`{"command":"ls","uri":"kb://me/d/","cursor":%q,"limit":2}`, *l.NextCursor)
		res, err := e.tree.RunCommand(context.Background(), e.alice, []byte(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if names := lsNames(res); !slices.Equal(names, []string{"n04.md", "n06.md"}) {
			t.Fatalf("command page after the cursor: %v", names)
		}

		e.mkdir(e.alice, "kb://me/other/")
		_, err = e.run(e.alice, "kb://me/", "ls", map[string]any{"uri": "kb://me/other/", "cursor": *l.NextCursor})
		wantToolErr(t, err, "invalid_cursor", "another folder")
		_, err = e.run(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "cursor": "abc"})
		wantToolErr(t, err, "invalid_cursor", "next_cursor")
		_, err = e.run(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "cursor": *l.NextCursor + "x"})
		wantToolErr(t, err, "invalid_cursor", "altered")
		_, err = e.run(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "cursor": *l.NextCursor, "offset": 2})
		wantToolErr(t, err, "invalid_cursor", "offset")
	})
}
