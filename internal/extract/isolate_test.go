package extract

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain turns the test binary into the extraction child when Isolation
// starts it, with three formats that misbehave as hostile files do.
func TestMain(m *testing.M) {
	if IsChild() {
		Register(".hang", func(context.Context, []byte, Limits) (Result, error) {
			//lint:ignore SA5002 a parser caught in a loop is what this stands for
			for {
			}
		})
		Register(".balloon", func(context.Context, []byte, Limits) (Result, error) {
			for {
				b := make([]byte, 16<<20)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				balloon = append(balloon, b)
			}
		})
		Register(".pid", func(context.Context, []byte, Limits) (Result, error) {
			return Result{Format: "text", Text: strconv.Itoa(os.Getpid())}, nil
		})
		Register(".keep", func(_ context.Context, raw []byte, _ Limits) (Result, error) {
			n, _ := strconv.Atoi(string(raw))
			b := make([]byte, n<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			balloon = append(balloon, b)
			return Result{Format: "text", Text: strconv.Itoa(os.Getpid())}, nil
		})
		Register(".crash", func(context.Context, []byte, Limits) (Result, error) {
			go panic("a parser bug outside the recovered goroutine")
			select {}
		})
		os.Exit(ChildMain())
	}
	if os.Getenv("KB_TEST_EXTRACT_PARENT") == "1" {
		// Stands for a server that is killed while a child parses.
		iso := testIsolation()
		iso.Timeout = time.Minute
		_, _ = iso.Run(context.Background(), "loop.hang", nil)
		os.Exit(0)
	}
	// Every test process (fuzz workers included) loads the compiled PDF
	// engine from one cache instead of compiling it again.
	SetPDFCacheDir(testCacheDir)
	os.Exit(m.Run())
}

var testCacheDir = filepath.Join(os.TempDir(), "knowspace-test-pdf-engine")

// balloon keeps what the .balloon format allocates reachable.
var balloon [][]byte

func testIsolation() Isolation {
	return Isolation{Command: []string{os.Args[0]}, Timeout: 3 * time.Second, MemoryBytes: 256 << 20, CacheDir: testCacheDir}
}

func TestIsolatedExtracts(t *testing.T) {
	t.Parallel()
	res, err := testIsolation().Run(context.Background(), "notes.md", []byte("# Notes\nplain text"))
	if err != nil || res.Text != "# Notes\nplain text" || res.Format != "text" || res.Encoding != "utf-8" {
		t.Fatalf("got %+v, %v", res, err)
	}
	_, err = testIsolation().Run(context.Background(), "old.doc", []byte("x"))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnsupported || !strings.Contains(e.Message, "old.doc") {
		t.Fatalf("got %v, want unsupported_format naming the file", err)
	}
}

func TestIsolatedHostileFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, code string
		timeout    time.Duration
	}{
		{"loop.hang", CodeTimeout, 2 * time.Second},
		// The ceiling must be reached before the deadline even on a loaded
		// machine, so the deadline here is generous.
		{"big.balloon", CodeTooLarge, 30 * time.Second},
		// A crash is the file's failure, not a reason to retry it.
		{"bug.crash", CodeParseFailed, 30 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			iso := testIsolation()
			iso.Timeout, iso.MemoryBytes = c.timeout, 96<<20
			_, err := iso.Run(context.Background(), c.name, []byte("x"))
			if took := time.Since(start); took > c.timeout+2*time.Second {
				t.Fatalf("took %s; the deadline was %s", took, c.timeout)
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.name) {
				t.Fatalf("got %v, want %s", err, c.code)
			}
		})
	}
}

func TestIsolatedCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	iso := testIsolation()
	iso.Timeout = time.Minute
	_, err := iso.Run(ctx, "loop.hang", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("cancel took %s", took)
	}
}

// A writer handed to a command is filled by io.Copy, which prefers the
// writer's ReadFrom: the cap must hold through it as through Write.
func TestCappedHoldsThroughACopy(t *testing.T) {
	big := strings.Repeat("complaint\n", 100_000)
	c := &capped{max: 1 << 10}
	if _, err := io.Copy(c, io.LimitReader(strings.NewReader(big), int64(len(big)))); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1<<10 || !strings.HasPrefix(big, c.String()) {
		t.Fatalf("kept %d bytes; want the first %d", c.Len(), 1<<10)
	}
}
