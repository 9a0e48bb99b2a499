package compile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const testKey = "sk-compile-test-secret-key"

type env struct {
	t     testing.TB
	st    *store.Store
	tree  *knowledge.Tree
	index *search.Index
	fake  *fakellm.Server
	svc   *Service
	alice kb.Caller
	bob   kb.Caller
	opts  Options
}

// newEnv builds a real store, tree and fake LLM; the fake answers every
// chat request with "summary of <first line of the prompt>" unless a test
// sets another function.
func newEnv(t testing.TB, dialect string, tweak ...func(*Options)) *env {
	t.Helper()
	stack := apptest.NewStack(t, dialect, apptest.MaxUpload(10<<20))
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
		_, q := r.Chat.LastUser()
		return fakellm.TextStream("generated: ", firstLine(q))
	})
	reg := apptest.Models(t, fake.Model("fake", testKey, "upstream-name"))
	e := &env{t: t, st: stack.Store, tree: stack.Tree, index: stack.Index, fake: fake.Server,
		alice: stack.Caller(t, "alice"), bob: stack.Caller(t, "bob")}
	e.opts = Options{Store: e.st, Tree: e.tree, Models: reg, Lease: 2 * time.Second, Heartbeat: 50 * time.Millisecond,
		Poll: 20 * time.Millisecond, Backoff: func(int) time.Duration { return 10 * time.Millisecond },
		Defaults: Defaults{ModelID: "fake", TimeoutS: 30}, Extraction: testExtraction()}
	for _, f := range tweak {
		f(&e.opts)
	}
	e.svc = New(e.opts)
	return e
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// put uploads files into folder (created first) for c.
func (e *env) put(c kb.Caller, folder string, files map[string][]byte) {
	e.t.Helper()
	ctx := context.Background()
	if _, _, err := e.tree.Resolve(ctx, c, folder); err != nil {
		if _, err := e.tree.Mkdir(ctx, c, folder); err != nil {
			e.t.Fatal(err)
		}
	}
	var staged []knowledge.Staged
	for name, b := range files {
		s, err := e.tree.Stage(name, bytes.NewReader(b))
		if err != nil {
			e.t.Fatal(err)
		}
		staged = append(staged, s)
	}
	if _, err := e.tree.CommitUpload(ctx, c, folder, staged, knowledge.ConflictReplace); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) enqueue(c kb.Caller, r Request) EnqueueResult {
	e.t.Helper()
	res, err := e.svc.Enqueue(context.Background(), c, r)
	if err != nil {
		e.t.Fatalf("enqueue: %v", err)
	}
	return res
}

func (e *env) start(n int) *Pool {
	p := e.svc.Start(n)
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Stop(ctx)
	})
	return p
}

// wait polls the job until it is in one of states.
func (e *env) wait(c kb.Caller, id int64, states ...string) JobView {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		j, err := e.svc.Job(context.Background(), c, id)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, s := range states {
			if j.State == s {
				return j
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %d is %s/%s, want %v (error %+v)", id, j.State, j.Stage, states, j.Error)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *env) read(c kb.Caller, uri string) string {
	e.t.Helper()
	p, err := e.tree.ReadPage(context.Background(), c, uri, 0, knowledge.MaxPageLimit)
	if err != nil {
		e.t.Fatalf("read %s: %v", uri, err)
	}
	return p.Text
}

func (e *env) exists(c kb.Caller, uri string) bool {
	_, _, err := e.tree.Resolve(context.Background(), c, uri)
	return err == nil
}

func result(t testing.TB, j JobView) Result {
	t.Helper()
	var r Result
	if err := json.Unmarshal(j.Result, &r); err != nil {
		t.Fatalf("result of job %d: %v (%s)", j.ID, err, j.Result)
	}
	return r
}

// chatCount counts chat requests the fake received.
func (e *env) chatCount() int {
	n := 0
	for _, r := range e.fake.Requests() {
		if r.Chat != nil {
			n++
		}
	}
	return n
}

func each(t *testing.T, fn func(t *testing.T, dialect string)) { storetest.Each(t, fn) }

// TestMain doubles as the extraction child of every test service, with a
// format whose parser spins without looking at its context, as a parser
// caught in a hostile file's loop does.
func TestMain(m *testing.M) {
	// Registered in the parent too, so that it sends .spin files to the
	// child as it does every parsed format.
	extract.Register(".spin", func(context.Context, []byte, extract.Limits) (extract.Result, error) {
		//lint:ignore SA5002 a parser caught in a loop is what this stands for
		for {
		}
	})
	if extract.IsChild() {
		os.Exit(extract.ChildMain())
	}
	slog.SetDefault(slog.New(slog.DiscardHandler))
	if os.Getenv("KS_SANDBOX_CLI") != "" {
		// The sandbox test's server child, maybe another user: no engine.
		os.Exit(m.Run())
	}
	// Compile the PDF engine once into a cache every child then loads, as
	// the server does at start.
	iso := testExtraction()
	extract.SetPDFCacheDir(iso.CacheDir) // for the tests that parse in-process
	if err := iso.Warm(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "warm the PDF engine:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// testExtraction runs parses in this test binary as a child process, so
// compile tests go through the same isolation as the server.
func testExtraction() *extract.Isolation {
	return &extract.Isolation{Command: []string{os.Args[0]}, Timeout: 20 * time.Second, MemoryBytes: 1 << 30,
		CacheDir: filepath.Join(os.TempDir(), "knowspace-test-pdf-engine")}
}
