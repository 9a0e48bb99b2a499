package importer

import (
	"bytes"
	"io"
	"runtime"
	"sync"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/archive"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// inMemoryEntry is the largest entry handed to another core: it is read
// into memory first, as the archive can only be read in order. Larger
// entries are staged as they stream, on the reading goroutine.
const inMemoryEntry = 1 << 20

// stager stages an archive's files on every core: hashing, writing and
// reading the text of 10,000 small files was one core's work for most of
// an import, while the archive's reader waited. The files keep the
// archive's order whatever order they finish in.
type stager struct {
	tree *knowledge.Tree
	work chan stageItem
	wg   sync.WaitGroup

	mu   sync.Mutex
	out  []staged // by the entry's place in the archive
	err  error    // the first failure; later entries are not staged
	next int
}

type stageItem struct {
	i    int
	rel  string
	body []byte
}

// staged is one entry's outcome: its staged file, or why its name was
// refused (the import goes on without it).
type staged struct {
	file knowledge.Staged
	bad  *archive.Skip
}

func newStager(tree *knowledge.Tree) *stager {
	n := runtime.GOMAXPROCS(0)
	s := &stager{tree: tree, work: make(chan stageItem, n)}
	for range n {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for it := range s.work {
				s.stage(it.i, it.rel, bytes.NewReader(it.body))
			}
		}()
	}
	return s
}

// add stages one entry, on another core when it is small; it returns the
// first failure so far, which ends the walk.
func (s *stager) add(rel string, size int64, body io.Reader) error {
	s.mu.Lock()
	i, err := s.next, s.err
	s.next++
	s.out = append(s.out, staged{})
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if size > inMemoryEntry {
		s.stage(i, rel, body)
		return s.failed()
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	s.work <- stageItem{i: i, rel: rel, body: b}
	return nil
}

func (s *stager) stage(i int, rel string, body io.Reader) {
	if s.failed() != nil {
		return
	}
	st, err := s.tree.StagePath(rel, true, body)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ae, ok := apierr.As(err); ok && ae.Code == apierr.CodeInvalidName {
		// One badly named entry must not cost the other 19,999.
		s.out[i].bad = &archive.Skip{Name: rel, Reason: ae.Message}
		return
	}
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	s.out[i].file = st
}

func (s *stager) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// wait returns the staged files in the archive's order and the entries
// whose names were refused; on a failure it discards what was staged.
func (s *stager) wait() ([]knowledge.Staged, []archive.Skip, error) {
	close(s.work)
	s.wg.Wait()
	var files []knowledge.Staged
	var bad []archive.Skip
	for _, o := range s.out {
		switch {
		case o.bad != nil:
			bad = append(bad, *o.bad)
		case o.file.Name != "":
			files = append(files, o.file)
		}
	}
	if s.err != nil {
		knowledge.Discard(files)
		return nil, nil, s.err
	}
	return files, bad, nil
}
