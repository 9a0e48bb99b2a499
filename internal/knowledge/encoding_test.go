package knowledge_test

import (
	"context"
	"encoding/json"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestLegacyEncodingUpload: a GBK or UTF-16 text file is read, paged and
// searched as its decoded text with code-point offsets and says its
// encoding, while the raw download keeps the uploaded bytes.
func TestLegacyEncodingUpload(t *testing.T) {
	gbk, err := os.ReadFile("../extract/testdata/enc/zh-hans.gbk.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../extract/testdata/enc/zh-hans.utf8")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice")
		a := cs[0]
		knowledge.MustUpload(t, tree, a, "kb://me/", "纪要.txt", string(gbk))
		knowledge.MustUpload(t, tree, a, "kb://me/", "utf16.md", "\xff\xfe#\x00 \x00A\x00\n\x00")
		knowledge.MustUpload(t, tree, a, "kb://me/", "plain.md", "plain")
		knowledge.MustUpload(t, tree, a, "kb://me/", "blob.bin", "\x00\x01\x02binary")

		p, err := tree.ReadPage(ctx, a, "kb://me/纪要.txt", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Body != "l2" || p.Encoding != "gb18030" || p.Text != string(want) || p.Total != int64(utf8.RuneCount(want)) {
			t.Fatalf("gbk page: %+v", p)
		}
		// Offsets count code points of the decoded text.
		p, err = tree.ReadPage(ctx, a, "kb://me/纪要.txt", 3, 3)
		if err != nil || p.Text != "习之，" || *p.NextOffset != 6 {
			t.Fatalf("gbk window: %+v, %v", p, err)
		}
		for name, enc := range map[string]string{"utf16.md": "utf-16le", "plain.md": "utf-8", "blob.bin": ""} {
			p, err := tree.ReadPage(ctx, a, "kb://me/"+name, 0, 0)
			if err != nil || p.Encoding != enc {
				t.Errorf("%s: encoding %q, %v; want %q", name, p.Encoding, err, enc)
			}
			if name == "utf16.md" && p.Text != "# A\n" {
				t.Errorf("utf-16 text %q", p.Text)
			}
		}

		res, err := tools.New(tree).RunScopedTool(ctx, a, kb.Scope{URI: "kb://me/"}, "search", json.RawMessage(`{"uri":"kb://me/","query":"会议纪要"}`))
		if err != nil || !strings.Contains(string(res.JSON), "纪要.txt") || !strings.Contains(string(res.JSON), "会议纪要") {
			t.Fatalf("search over decoded text: %s, %v", res.JSON, err)
		}
		res, err = tools.New(tree).RunScopedTool(ctx, a, kb.Scope{URI: "kb://me/纪要.txt"}, "read", json.RawMessage(`{"uri":"kb://me/纪要.txt","limit":2}`))
		if err != nil || !strings.Contains(string(res.JSON), `"encoding":"gb18030"`) || !strings.Contains(string(res.JSON), `"text":"学而"`) {
			t.Fatalf("read tool: %s, %v", res.JSON, err)
		}

		f, err := tree.OpenRaw(ctx, a, "kb://me/纪要.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if b, _ := io.ReadAll(f); string(b) != string(gbk) {
			t.Fatalf("raw bytes changed: %q", b)
		}
	})
}
