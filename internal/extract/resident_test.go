package extract

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"
)

// residentIsolation has children of its own: the extra argument gives them
// a command line no other test's children share.
func residentIsolation(t *testing.T) Isolation {
	iso := testIsolation()
	iso.Command = []string{os.Args[0], "-test.run=^$", "-resident=" + t.Name()}
	return iso
}

// childPID reads a document of the .pid format, which answers the pid of
// the child that read it.
func childPID(t *testing.T, iso Isolation) int {
	t.Helper()
	res, err := iso.Run(context.Background(), "who.pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(res.Text)
	if err != nil {
		t.Fatalf("answer %q", res.Text)
	}
	return pid
}

// One child reads document after document, and is replaced after
// residentDocs of them.
func TestChildReadsManyDocuments(t *testing.T) {
	t.Parallel()
	iso := residentIsolation(t)
	first := childPID(t, iso)
	for i := 2; i <= residentDocs; i++ {
		if pid := childPID(t, iso); pid != first {
			t.Fatalf("document %d read by child %d; the first by %d", i, pid, first)
		}
	}
	if pid := childPID(t, iso); pid == first {
		t.Fatalf("child %d still reading after %d documents", pid, residentDocs)
	}
}

// A document that crashes, hangs or balloons its child costs that child
// alone: it is killed, the document fails with its code, and the next one
// is read by a new child.
func TestFailedDocumentTakesItsChild(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, code string }{
		{"bug.crash", CodeParseFailed},
		{"loop.hang", CodeTimeout},
		{"big.balloon", CodeTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			iso := residentIsolation(t)
			iso.Timeout, iso.MemoryBytes = 5*time.Second, 128<<20
			before := childPID(t, iso)
			_, err := iso.Run(context.Background(), c.name, []byte("x"))
			var e *Error
			if !errors.As(err, &e) || e.Code != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if alive(before) {
				t.Fatalf("child %d outlived the document that failed in it", before)
			}
			if after := childPID(t, iso); after == before {
				t.Fatalf("the next document went to the failed child %d", after)
			}
		})
	}
}

// A cancelled document kills its child; the child is not handed the next.
func TestCancelledDocumentTakesItsChild(t *testing.T) {
	t.Parallel()
	iso := residentIsolation(t)
	iso.Timeout = time.Minute
	before := childPID(t, iso)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := iso.Run(ctx, "loop.hang", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if alive(before) {
		t.Fatalf("child %d still runs after its document was cancelled", before)
	}
}

// A child whose memory grew by more than a quarter of its ceiling reading
// a document is not trusted with the next one.
func TestGrownChildRetires(t *testing.T) {
	t.Parallel()
	iso := residentIsolation(t)
	// The race detector's shadow memory counts against the ceiling too.
	iso.MemoryBytes, iso.Timeout = slowdown*256<<20, slowdown*10*time.Second
	before := childPID(t, iso)
	res, err := iso.Run(context.Background(), "grow.keep", []byte(strconv.Itoa(150*max(1, slowdown/2))))
	if err != nil || res.Text != strconv.Itoa(before) {
		t.Fatalf("got %+v, %v; want read by child %d", res, err, before)
	}
	if after := childPID(t, iso); after == before {
		t.Fatalf("child %d kept after growing by more than a quarter of its ceiling", after)
	}
}
