package extract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Defaults of an isolated extraction (config parse_timeout, parse_memory_mb).
const (
	DefaultTimeout     = 120 * time.Second
	DefaultMemoryBytes = 1 << 30
	// pollEvery is how often the parent looks at the child's memory.
	pollEvery   = 50 * time.Millisecond
	maxStderr   = 4 << 10
	childEnvKey = "KB_EXTRACT_CHILD"
)

// Isolation runs extractions in a child process of this binary, so that
// nothing a document does — a parser loop that never checks its context,
// runaway memory, a crash — can pin a worker, its job lease or the server's
// memory: the parent kills the child at the deadline, on cancel, or when its
// resident memory passes the ceiling.
type Isolation struct {
	// Command starts the child; it must end in a call to ChildMain. Empty
	// means this executable with the argument "extract".
	Command     []string
	Timeout     time.Duration
	MemoryBytes int64
	Limits      Limits
	// CacheDir keeps the PDF engine's compiled code between children (see
	// SetPDFCacheDir); without it every child compiles it again.
	CacheDir string
}

// request is the first line the child reads; the raw bytes follow it.
type request struct {
	Name        string `json:"name"`
	Limits      Limits `json:"limits"`
	MemoryBytes int64  `json:"memory_bytes"`
	CacheDir    string `json:"cache_dir,omitempty"`
	// Warm asks the child only to start the PDF engine, filling CacheDir.
	Warm bool `json:"warm,omitempty"`
	// Page asks the child to draw this page (1-based) of a PDF instead of
	// extracting its text.
	Page int `json:"page,omitempty"`
	// Size is the document's length for a resident child, which reads
	// exactly that much and then waits for the next request; without it
	// the child reads to the end of its input and exits.
	Size *int64 `json:"size,omitempty"`
	// Report asks for progress lines before the answer.
	Report bool `json:"report,omitempty"`
}

// reply is the child's one answer on stdout: a Result or an Image, or an
// Error (which an Image may come with, to say how many pages there are).
type reply struct {
	Result *Result    `json:"result,omitempty"`
	Image  *PageImage `json:"image,omitempty"`
	Error  *Error     `json:"error,omitempty"`
	// Progress alone makes a line a report before the answer (a request
	// with Report set).
	Progress *Progress `json:"progress,omitempty"`
}

// Run extracts raw in a child process. The error is an *Error (including
// CodeTimeout past the deadline and CodeParseFailed when the child died),
// ctx's error when ctx ended first, or a plain error when the child could
// not be started.
func (iso Isolation) Run(ctx context.Context, name string, raw []byte) (Result, error) {
	return iso.RunReporting(ctx, name, raw, nil)
}

// RunReporting is Run telling report, when not nil, how far the reading of
// a long document has come.
func (iso Isolation) RunReporting(ctx context.Context, name string, raw []byte, report func(Progress)) (Result, error) {
	req := request{Name: name, Limits: iso.Limits, CacheDir: iso.CacheDir, Report: report != nil}
	rep, err := iso.resident(ctx, req, raw, report)
	return result(name, rep, err)
}

// Warm starts the PDF engine once in a child so that CacheDir holds its
// compiled code before the first document needs it; the first compile of
// the engine takes far longer than reading a document.
func (iso Isolation) Warm(ctx context.Context) error {
	if iso.CacheDir == "" {
		return nil
	}
	// Compiling the engine is our own trusted work, and under the race
	// detector it takes several times a document's memory.
	iso.Timeout, iso.MemoryBytes = 10*time.Minute, max(iso.MemoryBytes, 8<<30)
	_, err := iso.run(ctx, request{Name: "the PDF engine", CacheDir: iso.CacheDir, Warm: true}, bytes.NewReader(nil))
	return err
}

func (iso Isolation) run(ctx context.Context, req request, body io.Reader) (Result, error) {
	rep, err := iso.exchange(ctx, req, body, iso.Timeout)
	return result(req.Name, rep, err)
}

// result is the Result a child's reply holds, or the failure it reports.
func result(name string, rep reply, err error) (Result, error) {
	switch {
	case err != nil:
		return Result{}, err
	case rep.Error != nil:
		return Result{}, rep.Error
	case rep.Result == nil:
		return Result{}, Fail(CodeParseFailed, "%s: the parser stopped unexpectedly on this file", name)
	}
	return *rep.Result, nil
}

// budget is what one request may spend in a child.
type budget struct {
	argv    []string
	ceiling int64
	timeout time.Duration
}

// prepare resolves the child's command and the request's budget (timeout
// 0 means DefaultTimeout) and writes the budget into req.
func (iso Isolation) prepare(req *request, timeout time.Duration) (budget, error) {
	bud := budget{argv: iso.Command, ceiling: iso.MemoryBytes, timeout: timeout}
	if bud.timeout <= 0 {
		bud.timeout = DefaultTimeout
	}
	if bud.ceiling <= 0 {
		bud.ceiling = DefaultMemoryBytes
	}
	if len(bud.argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return bud, fmt.Errorf("find own executable: %w", err)
		}
		bud.argv = []string{exe, "extract"}
	}
	req.MemoryBytes = bud.ceiling
	// The child has no PATH; Tesseract and pdftotext are found here. OCR stops starting
	// pages a little before the deadline, so a long scan keeps what it read.
	req.Limits.OCR = req.Limits.OCR.Resolve()
	req.Limits = req.Limits.resolvePdftotext()
	req.Limits.OCR.Until = time.Now().Add(bud.timeout - min(max(bud.timeout/5, time.Second), 15*time.Second))
	return bud, nil
}

// childCommand is the child's command. It is handed no secret: parsers of
// hostile files run with an empty environment and no working directory of
// ours.
func childCommand(cmd *exec.Cmd) *exec.Cmd {
	cmd.Env = []string{childEnvKey + "=1"}
	cmd.Dir = os.TempDir()
	cmd.WaitDelay = time.Second
	configureChild(cmd)
	return cmd
}

// watch cancels cctx with errDeadline past the budget's timeout and with
// errOverMemory once the child's resident set passes the ceiling; stop
// ends the watch.
func (bud budget) watch(pid int, cancel context.CancelCauseFunc) (overMemory <-chan int64, stop func()) {
	done := make(chan struct{})
	seen := make(chan int64, 1)
	go watchMemory(pid, bud.ceiling, done, seen, func() { cancel(errOverMemory) })
	timer := time.AfterFunc(bud.timeout, func() { cancel(errDeadline) })
	return seen, func() {
		timer.Stop()
		close(done)
	}
}

// stopped is why the watch or the caller ended a request early, or nil.
func (bud budget) stopped(ctx, cctx context.Context, name string, overMemory <-chan int64) error {
	switch cause := context.Cause(cctx); {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(cause, errDeadline):
		return Fail(CodeTimeout, "%s: reading the file took longer than %s and was stopped", name, bud.timeout)
	case errors.Is(cause, errOverMemory):
		<-overMemory
		return Fail(CodeTooLarge, "%s: reading the file needed more than %d MB of memory and was stopped", name, bud.ceiling>>20)
	}
	return nil
}

// noAnswer is the failure of a child that ended without a reply. The same
// bytes would crash it again: a failure of this file, not one to retry.
// What the child said goes to the log only.
func noAnswer(name string, exit error, stderr string) error {
	slog.Warn("extraction child ended without an answer", "file", name, "exit", exit, "stderr", stderr)
	return Fail(CodeParseFailed, "%s: the parser stopped unexpectedly on this file", name)
}

// exchange sends one request to a new child, the document streamed from
// body, and returns its reply, or the failure that ended it: ctx's error,
// CodeTimeout past timeout, CodeTooLarge past the memory ceiling,
// CodeParseFailed when the child died without an answer.
func (iso Isolation) exchange(ctx context.Context, req request, body io.Reader, timeout time.Duration) (reply, error) {
	bud, err := iso.prepare(&req, timeout)
	if err != nil {
		return reply{}, err
	}
	hdr, _ := json.Marshal(req)
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cmd := childCommand(exec.CommandContext(cctx, bud.argv[0], bud.argv[1:]...))
	cmd.Cancel = func() error { return killChild(cmd) }
	cmd.Stdin = io.MultiReader(bytes.NewReader(append(hdr, '\n')), body)
	var out bytes.Buffer
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Start(); err != nil {
		return reply{}, fmt.Errorf("start extraction child: %w", err)
	}
	overMemory, stop := bud.watch(cmd.Process.Pid, cancel)
	err = cmd.Wait()
	stop()
	if err := bud.stopped(ctx, cctx, req.Name, overMemory); err != nil {
		return reply{}, err
	}
	var rep reply
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil || rep.Result == nil && rep.Image == nil && rep.Error == nil {
		return reply{}, noAnswer(req.Name, err, stderr.String())
	}
	return rep, nil
}

var (
	errDeadline   = errors.New("extraction deadline")
	errOverMemory = errors.New("extraction over its memory ceiling")
)

// watchMemory kills the child through kill once its resident set passes
// ceiling, reporting the size it saw.
func watchMemory(pid int, ceiling int64, done <-chan struct{}, seen chan<- int64, kill func()) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if rss, ok := residentBytes(pid); ok && rss > ceiling {
			seen <- rss
			kill()
			return
		}
	}
}

// IsChild reports whether this process was started by Isolation.Run.
func IsChild() bool { return os.Getenv(childEnvKey) == "1" }

// ChildMain is the child's side: it reads a request from stdin, extracts,
// writes one reply line to stdout, and returns the exit code. A resident
// child (the request has a Size) then waits for the next request, until
// its parent closes stdin.
func ChildMain() int {
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	for first := true; ; first = false {
		line, err := in.ReadBytes('\n')
		if !first && err == io.EOF && len(line) == 0 {
			return 0
		}
		var req request
		if err != nil || json.Unmarshal(line, &req) != nil {
			fmt.Fprintln(os.Stderr, "extract: expected a JSON request line on stdin (this command is run by the server, not by hand)")
			return 2
		}
		limitChildMemory(req.MemoryBytes)
		if req.CacheDir != "" {
			SetPDFCacheDir(req.CacheDir)
		}
		var raw []byte
		if req.Size != nil {
			raw = make([]byte, *req.Size)
			_, err = io.ReadFull(in, raw)
		} else {
			raw, err = io.ReadAll(in)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "extract: read input:", err)
			return 2
		}
		out := &lineWriter{enc: json.NewEncoder(os.Stdout)}
		if req.Report {
			req.Limits.Progress = func(p Progress) { _ = out.write(reply{Progress: &p}) }
		}
		if err := out.write(serve(req, raw)); err != nil {
			return 1
		}
		if req.Size == nil {
			return 0
		}
	}
}

// lineWriter writes the child's lines one at a time: progress comes from
// the goroutines reading pages.
type lineWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (w *lineWriter) write(rep reply) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(rep)
}

// serve answers one request in the child.
func serve(req request, raw []byte) reply {
	var rep reply
	var err error
	switch {
	case req.Warm:
		err = StartPDFEngine()
		rep.Result = &Result{Format: "pdf"}
	case req.Page > 0:
		var img PageImage
		img, err = RenderPage(context.Background(), raw, req.Page, req.Limits.OCR)
		if img.Pages > 0 {
			rep.Image = &img
		}
	default:
		var res Result
		res, err = Extract(context.Background(), req.Name, raw, req.Limits)
		rep.Result = &res
	}
	var e *Error
	switch {
	case err == nil:
	case errors.As(err, &e):
		rep.Result = nil
		rep.Error = e
	default:
		rep.Result, rep.Image = nil, nil
		rep.Error = Fail(CodeParseFailed, "%s could not be read: %v", req.Name, err)
	}
	return rep
}

// capped keeps the first max bytes written to it. Its buffer is a field,
// not embedded: io.Copy, which fills a command's writers, would take an
// embedded buffer's ReadFrom and keep everything.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) Len() int       { return c.buf.Len() }
func (c *capped) String() string { return c.buf.String() }
