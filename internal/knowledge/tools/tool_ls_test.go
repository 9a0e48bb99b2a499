package tools

import (
	"fmt"
	"slices"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

func lsNames(r ToolResult) []string {
	var out []string
	for _, it := range r.Value.(*LsResult).Items {
		out = append(out, it.Name)
	}
	return out
}

func TestToolLsPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		for _, name := range []string{"e.md", "a.md", "会议.md", "c.md", "b.md"} {
			e.put(e.alice, "kb://me/d/", name, []byte(name))
		}
		e.mkdir(e.alice, "kb://me/d/zdir/")
		e.mkdir(e.alice, "kb://me/d/adir/")
		want := []string{"adir", "zdir", "a.md", "b.md", "c.md", "e.md", "会议.md"}

		var got []string
		var offsets []int
		offset := 0
		for {
			offsets = append(offsets, offset)
			r := e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "offset": offset, "limit": 3})
			got = append(got, lsNames(r)...)
			next := r.Value.(*LsResult).NextOffset
			if next == nil {
				break
			}
			offset = *next
		}
		if !slices.Equal(got, want) || !slices.Equal(offsets, []int{0, 3, 6}) {
			t.Fatalf("pages %v at %v, want %v", got, offsets, want)
		}
		// And back: an earlier page is the same again.
		back := e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/", "offset": 3, "limit": 3})
		if !slices.Equal(lsNames(back), want[3:6]) {
			t.Fatalf("page at 3: %v", lsNames(back))
		}
		all := e.mustRun(e.alice, "kb://me/d/", "ls", `{"uri":"kb://me/d/"}`)
		l := all.Value.(*LsResult)
		if len(l.Items) != 7 || l.NextOffset != nil || all.Summary != "7 items (2 folders, 5 files)" {
			t.Fatalf("default page: %+v %q", l, all.Summary)
		}
		it := l.Items[2]
		if it.URI != "kb://users/alice/d/a.md" || it.Kind != "file" || it.Size != 4 || it.UpdatedAt.IsZero() || it.Generated {
			t.Fatalf("item %+v", it)
		}
		if l.Items[0].URI != "kb://users/alice/d/adir/" || l.Items[0].Kind != "dir" {
			t.Fatalf("folder item %+v", l.Items[0])
		}
	})
}

func TestToolLsBoundaries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		file := e.put(e.alice, "kb://me/d/", "a.md", []byte("x"))
		e.mkdir(e.alice, "kb://me/empty/")
		e.put(e.alice, "kb://me/wiki/", "summary.md", []byte("generated"))

		r := e.mustRun(e.alice, "kb://me/", "ls", `{"uri":"kb://me/d/","offset":1}`)
		if l := r.Value.(*LsResult); len(l.Items) != 0 || l.NextOffset != nil || l.Note == "" {
			t.Fatalf("offset at the end: %+v", l)
		}
		r = e.mustRun(e.alice, "kb://me/", "ls", `{"uri":"kb://me/d/","offset":50}`)
		if l := r.Value.(*LsResult); len(l.Items) != 0 || l.Note != "nothing at offset 50: the folder has 50 children or fewer; start again from offset 0" {
			t.Fatalf("offset past the end: %+v", l)
		}
		r = e.mustRun(e.alice, "kb://me/", "ls", `{"uri":"kb://me/empty/"}`)
		if l := r.Value.(*LsResult); len(l.Items) != 0 || l.Note != "the folder is empty" || string(r.JSON) != `{"uri":"kb://users/alice/empty/","items":[],"next_offset":null,"next_cursor":null,"note":"the folder is empty"}` {
			t.Fatalf("empty folder: %s", r.JSON)
		}
		r = e.mustRun(e.alice, "kb://me/", "ls", `{"uri":"kb://me/wiki/"}`)
		if l := r.Value.(*LsResult); !l.Items[0].Generated {
			t.Fatalf("wiki item not generated: %+v", l.Items[0])
		}
		for _, limit := range []int{0, -1, 101} {
			_, err := e.run(e.alice, "kb://me/", "ls", map[string]any{"uri": "kb://me/d/", "limit": limit})
			wantToolErr(t, err, "invalid_arguments", fmt.Sprintf("not %d", limit))
		}
		_, err := e.run(e.alice, "kb://me/", "ls", map[string]any{"uri": file})
		wantToolErr(t, err, "not_a_folder", "use read")
	})
}
