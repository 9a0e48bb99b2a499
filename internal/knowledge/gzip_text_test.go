package knowledge_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestGzipTextReadableOnUpload: a gzipped man page or changelog needs no
// parser — inflating is bounded and linear, like decoding GBK — so its
// text is there when the upload answers, with no extraction job; a gzip
// that cannot be read as text still waits for the job, which says why.
func TestGzipTextReadableOnUpload(t *testing.T) {
	man, err := os.ReadFile("../extract/testdata/gz/ls.1.gz")
	if err != nil {
		t.Fatal(err)
	}
	var bin bytes.Buffer
	zw := gzip.NewWriter(&bin)
	zw.Write([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0})
	zw.Close()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice")
		a := cs[0]
		tree.AutoExtract(func() {})
		knowledge.MustUpload(t, tree, a, "kb://me/", "ls.1.gz", string(man))
		knowledge.MustUpload(t, tree, a, "kb://me/", "program.gz", bin.String())

		p, err := tree.ReadPage(ctx, a, "kb://me/ls.1.gz", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Body != "l2" || p.TextState != "" || !strings.Contains(p.Text, "ls - list directory contents") ||
			!strings.Contains(string(p.Extraction), `"format":"man"`) {
			t.Fatalf("ls.1.gz right after its upload: %+v", p)
		}
		p, err = tree.ReadPage(ctx, a, "kb://me/program.gz", 0, 0)
		if err != nil || p.Body != "none" || p.TextState != knowledge.TextPending {
			t.Fatalf("program.gz right after its upload: %+v, %v", p, err)
		}
		res, err := tools.New(tree).RunScopedTool(ctx, a, kb.Scope{URI: "kb://me/"}, "search",
			json.RawMessage(`{"uri":"kb://me/","query":"list directory contents","mode":"literal"}`))
		if err != nil || !strings.Contains(string(res.JSON), "ls.1.gz") {
			t.Fatalf("search: %s, %v", res.JSON, err)
		}
	})
}
