package knowledge

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// benchFolderSize is the folder of the keyset goal (issue #19): its last
// page by cursor should cost at most twice its first page.
const benchFolderSize = 100_000

// BenchmarkListLargeFolder lists the first and the last page (100 items)
// of a 100,000-file folder by cursor and by offset, on each dialect. The
// rows are bulk-inserted: the upload path would take minutes.
func BenchmarkListLargeFolder(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			ctx := context.Background()
			tree, cs, _ := newTestTree(b, dialect, "bench")
			c := cs[0]
			if _, err := tree.Mkdir(ctx, c, "kb://me/big/"); err != nil {
				b.Fatal(err)
			}
			folder, err := tree.st.NodeByPath(ctx, c.ID, "big")
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now().UTC()
			ns := make([]store.Node, benchFolderSize)
			for i := range ns {
				name := fmt.Sprintf("f%06d.txt", i)
				ns[i] = store.Node{UserID: c.ID, ParentID: &folder.ID, Name: name, Path: "big/" + name,
					Kind: store.KindFile, Size: 1, CreatedAt: now, UpdatedAt: now}
			}
			if err := tree.st.CreateNodes(ctx, ns); err != nil {
				b.Fatal(err)
			}
			lastStart := benchFolderSize - DefaultListLimit
			before, err := tree.st.Children(ctx, folder.ID, lastStart-1, 1)
			if err != nil || len(before) != 1 {
				b.Fatalf("row before the last page: %v %v", before, err)
			}
			lastCursor := *cursorAfter(folder.ID, before[0])
			firstReq := PageRequest{}
			lastFirst := fmt.Sprintf("f%06d.txt", lastStart)
			list := func(b *testing.B, pr PageRequest, first string) time.Duration {
				start := time.Now()
				l, err := tree.ListPage(ctx, c, "kb://me/big/", pr)
				took := time.Since(start)
				if err != nil || len(l.Items) != DefaultListLimit || l.Items[0].Name != first {
					b.Fatalf("%+v: %d items, err %v", pr, len(l.Items), err)
				}
				return took
			}
			// Each iteration reads the first page and then the last one, so
			// both see the same load on a shared machine and the ratio holds.
			for _, bc := range []struct {
				name string
				last PageRequest
			}{
				{"cursor", PageRequest{Cursor: lastCursor}},
				{"offset", PageRequest{Offset: lastStart}},
			} {
				b.Run(bc.name, func(b *testing.B) {
					var first, last time.Duration
					for i := 0; i < b.N; i++ {
						first += list(b, firstReq, "f000000.txt")
						last += list(b, bc.last, lastFirst)
					}
					b.ReportMetric(float64(first.Microseconds())/float64(b.N), "first-µs/op")
					b.ReportMetric(float64(last.Microseconds())/float64(b.N), "last-µs/op")
					b.ReportMetric(float64(last)/float64(first), "last/first")
				})
			}
		})
	}
}
