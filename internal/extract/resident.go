package extract

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A child reads one document after another: starting one costs ~0.2 s
// (PDFium loading its compiled code), many times the parse of a short PDF.
// Isolation holds as with a child per document: a child that fails in any
// way — deadline, memory ceiling, cancel, crash, an answer that does not
// parse — is killed with the one document it was reading, and what a parser
// leaks cannot pile up, since a child retires after residentDocs documents,
// after residentIdle without work, or once its memory has grown past a
// share of the ceiling.
const (
	residentDocs = 64
	residentIdle = 30 * time.Second
	// maxIdleChildren bounds the children kept waiting for work; more run
	// while more documents are read at once.
	maxIdleChildren = 4
	// retireShare: a child whose memory grew by more than
	// ceiling/retireShare since its first document (the PDF engine loaded)
	// is replaced rather than trusted with the next one.
	retireShare = 4
)

// resident is one child kept between documents.
type resident struct {
	key    string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Reader
	stderr *capped
	exited chan struct{} // closed once the child has been waited for
	served int
	// baseline is the child's resident set after its first document.
	baseline int64
	idle     *time.Timer
}

// residents are the idle children by command line.
var residents = struct {
	sync.Mutex
	idle map[string][]*resident
}{idle: map[string][]*resident{}}

// resident extracts raw in a child kept from an earlier document, or a new
// one, with the same answers and failures as exchange.
func (iso Isolation) resident(ctx context.Context, req request, raw []byte, report func(Progress)) (reply, error) {
	bud, err := iso.prepare(&req, iso.Timeout)
	if err != nil {
		return reply{}, err
	}
	size := int64(len(raw))
	req.Size = &size
	c, err := takeResident(strings.Join(bud.argv, "\x00"), bud.argv)
	if err != nil {
		return reply{}, fmt.Errorf("start extraction child: %w", err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	overMemory, stop := bud.watch(c.cmd.Process.Pid, cancel)
	answer := make(chan []byte, 1)
	go func() {
		hdr, _ := json.Marshal(req)
		line, err := []byte(nil), error(nil)
		if _, err = c.stdin.Write(append(hdr, '\n')); err == nil {
			if _, err = c.stdin.Write(raw); err == nil {
				line, err = c.answer(report)
			}
		}
		if err != nil {
			line = nil
		}
		answer <- line
	}()
	var line []byte
	select {
	case line = <-answer:
	case <-cctx.Done():
	}
	stop()
	if err := bud.stopped(ctx, cctx, req.Name, overMemory); err != nil {
		c.kill()
		return reply{}, err
	}
	var rep reply
	if line == nil || json.Unmarshal(line, &rep) != nil || rep.Result == nil && rep.Image == nil && rep.Error == nil {
		c.kill()
		return reply{}, noAnswer(req.Name, c.exitErr(), c.stderr.String())
	}
	c.served++
	rss, measured := residentBytes(c.cmd.Process.Pid)
	if c.served == 1 {
		c.baseline = rss
	}
	if c.served >= residentDocs || measured && rss-c.baseline > bud.ceiling/retireShare {
		go c.retire()
	} else {
		c.release()
	}
	return rep, nil
}

// answer reads the child's reply line, passing the progress lines before
// it to report.
func (c *resident) answer(report func(Progress)) ([]byte, error) {
	for {
		line, err := c.lines.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		// A line with progress alone is a report; anything else is the
		// answer, judged by the caller.
		var rep reply
		if json.Unmarshal(line, &rep) != nil || rep.Progress == nil || rep.Result != nil || rep.Image != nil || rep.Error != nil {
			return line, nil
		}
		if report != nil {
			report(*rep.Progress)
		}
	}
}

// takeResident returns an idle child started by argv, or starts one.
func takeResident(key string, argv []string) (*resident, error) {
	residents.Lock()
	for list := residents.idle[key]; len(list) > 0; list = residents.idle[key] {
		c := list[len(list)-1]
		residents.idle[key] = list[:len(list)-1]
		if c.idle.Stop() { // not already retiring for its idleness
			residents.Unlock()
			return c, nil
		}
	}
	residents.Unlock()
	return startResident(key, argv)
}

func startResident(key string, argv []string) (*resident, error) {
	cmd := childCommand(exec.Command(argv[0], argv[1:]...))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c := &resident{key: key, cmd: cmd, stdin: stdin, lines: bufio.NewReaderSize(r, 64<<10),
		stderr: &capped{max: maxStderr}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = w, c.stderr
	err = cmd.Start()
	w.Close() // the child holds its end; ours would keep reads from ending
	if err != nil {
		r.Close()
		return nil, err
	}
	go func() {
		_ = cmd.Wait()
		r.Close()
		close(c.exited)
	}()
	return c, nil
}

// release puts c back among the idle children, or retires it when enough
// are idle.
func (c *resident) release() {
	residents.Lock()
	defer residents.Unlock()
	if len(residents.idle[c.key]) >= maxIdleChildren {
		go c.retire()
		return
	}
	c.idle = time.AfterFunc(residentIdle, func() {
		residents.Lock()
		list := residents.idle[c.key]
		for i, o := range list {
			if o == c {
				residents.idle[c.key] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		residents.Unlock()
		c.retire()
	})
	residents.idle[c.key] = append(residents.idle[c.key], c)
}

// retire lets c end on its own: closing stdin is its sign to exit.
func (c *resident) retire() {
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.kill()
	}
}

// kill ends c and its process group at once and waits for it.
func (c *resident) kill() {
	_ = killChild(c.cmd)
	c.stdin.Close()
	<-c.exited
}

// exitErr is how the child ended, once it has.
func (c *resident) exitErr() error {
	select {
	case <-c.exited:
		if st := c.cmd.ProcessState; st != nil && !st.Success() {
			return fmt.Errorf("%s", st)
		}
	default:
	}
	return nil
}
