package importer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// TestStagerKeepsTheArchiveOrder: files staged on several cores come back
// in the archive's order, large ones staged as they stream among them; a
// refused name is skipped and the rest kept.
func TestStagerKeepsTheArchiveOrder(t *testing.T) {
	stack := apptest.NewStack(t, store.DialectSQLite, apptest.MaxUpload(4*inMemoryEntry))
	s := newStager(stack.Tree)
	var want []string
	for i := range 200 {
		name := fmt.Sprintf("d/f%03d.txt", i)
		size := 1 + (i*7919)%3000 // uneven, so workers finish out of order
		if i%50 == 7 {
			size = inMemoryEntry + 1
		}
		body := strings.Repeat("x", size)
		if i == 100 {
			name = "d/bad\x01name.txt"
		} else {
			want = append(want, name)
		}
		if err := s.add(name, int64(len(body)), strings.NewReader(body)); err != nil {
			t.Fatal(err)
		}
	}
	files, bad, err := s.wait()
	if err != nil {
		t.Fatal(err)
	}
	defer knowledge.Discard(files)
	if len(bad) != 1 || !strings.Contains(bad[0].Name, "bad") {
		t.Fatalf("skipped %+v, want the one bad name", bad)
	}
	if len(files) != len(want) {
		t.Fatalf("%d files staged, want %d", len(files), len(want))
	}
	for i, f := range files {
		if got := strings.Join(append(f.Dir, f.Name), "/"); got != want[i] {
			t.Fatalf("file %d is %s, want %s", i, got, want[i])
		}
	}
}
