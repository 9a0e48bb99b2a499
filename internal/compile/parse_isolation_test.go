package compile

import (
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
	"github.com/knowspace/knowspace/internal/store"
)

// A document that hangs its parser fails alone, within the parse deadline,
// and the one worker goes on to the next file; cancelling a job stuck in
// its parse ends it within seconds.
func TestHangingDocumentDoesNotPinTheWorker(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) {
			o.Extraction = testExtraction()
			// Long enough for a child to start on a loaded machine, short
			// enough that a worker pinned past it would fail the test.
			o.Extraction.Timeout = 5 * time.Second
		})
		e.put(e.alice, "kb://me/h/", map[string][]byte{
			"loop.spin": []byte("x"), "cyclic.pdf": extracttest.CyclicPDF(), "fine.md": []byte("# Fine\nreadable"),
		})
		ids := map[string]int64{}
		for _, name := range []string{"loop.spin", "cyclic.pdf", "fine.md"} {
			ids[name] = e.enqueue(e.alice, Request{URIs: []string{"kb://me/h/" + name}}).Jobs[0].ID
		}
		start := time.Now()
		e.start(1)

		j := e.wait(e.alice, ids["loop.spin"], store.JobFailed)
		if j.Error.Code != "parse_timeout" || j.Attempts != 1 || !strings.Contains(j.Error.Message, "loop.spin") {
			t.Fatalf("spinning parser: %+v %+v", j, j.Error)
		}
		j = e.wait(e.alice, ids["cyclic.pdf"], store.JobFailed)
		// PDFium reads the one real page, which has no text.
		if c := j.Error.Code; c != "parse_timeout" && c != "parse_failed" && c != "no_text" || j.Attempts != 1 {
			t.Fatalf("cyclic page tree: %+v %+v", j, j.Error)
		}
		e.wait(e.alice, ids["fine.md"], store.JobSucceeded)
		if got := e.read(e.alice, "kb://me/wiki/h/fine.md"); !strings.Contains(got, "generated: ") {
			t.Fatalf("summary of the file after the hanging ones: %q", got)
		}
		// Two deadlines at most, plus the work of the good file.
		if took := time.Since(start); took > 30*time.Second {
			t.Fatalf("the three jobs took %s on one worker", took)
		}

		id := e.enqueue(e.alice, Request{URIs: []string{"kb://me/h/loop.spin"}}).Jobs[0].ID
		for {
			if v, _ := e.svc.Job(t.Context(), e.alice, id); v.State == store.JobRunning && v.Stage == StageParse {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		asked := time.Now()
		if _, err := e.svc.Cancel(t.Context(), e.alice, id); err != nil {
			t.Fatal(err)
		}
		e.wait(e.alice, id, store.JobCancelled)
		if took := time.Since(asked); took > 5*time.Second {
			t.Fatalf("cancel during parse took %s", took)
		}
	})
}
