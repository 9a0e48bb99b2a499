// Package ingest makes every uploaded document readable and searchable
// without a model and without a second step: a write that leaves a PDF,
// office file, web page or image without text parsed from its current
// upload marks it (knowledge, inside the write); the workers here take
// each mark, parse the upload — in the extraction child when the format
// has a parser — and store its text as the file's L2 body, the same body
// compile makes and reuses. The index writer then makes it searchable.
// The workers are a pool of their own, apart from compile's, so a large
// import never waits behind summaries nor starves them.
package ingest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Defaults of Options.
const (
	DefaultPoll = 2 * time.Second
	// A lease outlives any parse (parse_timeout is at most an hour);
	// only a crashed worker's marks wait that long.
	DefaultLease = 65 * time.Minute
	// maxAttempts ends a document whose workers keep dying on it.
	maxAttempts = 3
)

// Options configure the service.
type Options struct {
	Store *store.Store
	Tree  *knowledge.Tree
	// Extraction parses in a child process with a deadline and a memory
	// ceiling; nil parses in-process (tests).
	Extraction *extract.Isolation
	// MaxBytes bounds the upload a worker reads (the upload limit).
	MaxBytes    int64
	Lease, Poll time.Duration
}

// Service runs automatic extractions.
type Service struct {
	o    Options
	wake chan struct{}
}

// New builds the service.
func New(o Options) *Service {
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	return &Service{o: o, wake: make(chan struct{}, 1)}
}

// Notify wakes an idle worker of this process: a write marked documents.
func (s *Service) Notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Pool is a set of extraction workers.
type Pool struct {
	s      *Service
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Start runs n workers until Stop.
func (s *Service) Start(n int) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool{s: s, ctx: ctx, cancel: cancel}
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	prefix := fmt.Sprintf("extract-%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
	for i := range n {
		p.wg.Go(func() { p.work(fmt.Sprintf("%s-%d", prefix, i)) })
	}
	return p
}

// Stop ends the workers; an extraction under way goes back to the queue.
func (p *Pool) Stop(ctx context.Context) error {
	p.cancel()
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("extraction workers did not stop in time: %w", ctx.Err())
	}
}

func (p *Pool) work(owner string) {
	idle := time.NewTimer(0)
	defer idle.Stop()
	for p.ctx.Err() == nil {
		e, err := p.s.o.Store.ClaimExtraction(p.ctx, owner, p.s.o.Lease)
		if err == nil {
			p.s.run(p.ctx, e)
			// Others may wait: look again before sleeping.
			p.s.Notify()
			continue
		}
		if !errors.Is(err, store.ErrNotFound) && p.ctx.Err() == nil {
			slog.Warn("claim extraction", "worker", owner, "err", err)
		}
		idle.Reset(p.s.o.Poll)
		select {
		case <-p.ctx.Done():
		case <-p.s.wake:
		case <-idle.C:
		}
	}
}
