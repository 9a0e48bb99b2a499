package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/ingest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestUploadedGzipFilesGetTheirText: a gzipped man page and a gzipped
// changelog, as Debian ships them, are read as the manual's and the
// changelog's text and found by a phrase of it; a gzip of binary bytes
// fails as not text.
func TestUploadedGzipFilesGetTheirText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		stack := apptest.NewStack(t, dialect)
		e := newEnvOn(t, stack, httpapi.Deps{})
		_, bob := e.newUser("bob")
		svc := ingest.New(ingest.Options{Store: stack.Store, Tree: stack.Tree, MaxBytes: testUploadLimit, Poll: 50 * time.Millisecond})
		stack.Tree.AutoExtract(svc.Notify)
		pool := svc.Start(1)
		t.Cleanup(func() { pool.Stop(context.Background()) })

		var bin bytes.Buffer
		zw := gzip.NewWriter(&bin)
		zw.Write([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0})
		zw.Close()
		e.mkdir(bob, "kb://me/doc/")
		e.mustUpload(bob, "kb://me/doc/",
			upFile{"ls.1.gz", corpusFile(t, "gz/ls.1.gz")},
			upFile{"changelog.Debian.gz", corpusFile(t, "gz/changelog.Debian.gz")},
			upFile{"program.gz", bin.Bytes()})
		base := "kb://users/bob/doc/"
		want := map[string]string{
			"ls.1.gz":             "List information about the FILEs (the current directory by default)",
			"changelog.Debian.gz": "Cherry-pick fixes related to APK file detection",
		}
		deadline := time.Now().Add(time.Minute)
		for name, phrase := range want {
			for {
				p := e.textPage(bob, base+name)
				if p.Body == "l2" {
					if p.TextState != "" || !strings.Contains(p.Text, phrase) || strings.Contains(p.Text, `\f`) {
						t.Fatalf("%s after extraction: %+v", name, p)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s not extracted in time: %+v", name, p)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		for {
			p := e.textPage(bob, base+"program.gz")
			if p.TextState == "text_failed" {
				if !strings.Contains(p.Note, "not text") {
					t.Fatalf("a gzip of binary bytes: %+v", p)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("program.gz not settled in time: %+v", p)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := stack.Index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		for name, phrase := range want {
			r := e.search(bob, "kb://me/doc/", phrase)
			if got := r.hitURIs(); len(got) != 1 || got[0] != base+name || !r.Complete {
				t.Fatalf("search %q: %v (%+v)", phrase, got, r)
			}
		}
	})
}
