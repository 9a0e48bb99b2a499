package knowledge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
)

// benchText is mixed ASCII and CJK so the character index has work to do.
func benchText(bytes int) string {
	line := "Knowspace keeps notes 知识库的目录结构 and pages them by code point.\n"
	s := strings.Repeat(line, bytes/len(line)+1)[:bytes]
	return strings.ToValidUTF8(s, "")
}

// BenchmarkReadLastPage reads the last 3000-character page of a 50 KB and a
// 50 MB file: with the sparse index both should cost about one page.
func BenchmarkReadLastPage(b *testing.B) {
	for _, size := range []int{50 << 10, 50 << 20} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			ctx := context.Background()
			tree, cs, _ := newTestTree(b, store.DialectSQLite, "bench")
			tree.maxUpload = 1 << 30
			text := benchText(size)
			mustUpload(b, tree, cs[0], "kb://me/", "big.md", text)
			first, err := tree.ReadPage(ctx, cs[0], "kb://me/big.md", 0, 1)
			if err != nil {
				b.Fatal(err)
			}
			offset := first.Total - DefaultPageLimit
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := tree.ReadPage(ctx, cs[0], "kb://me/big.md", offset, DefaultPageLimit)
				if err != nil || p.NextOffset != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
