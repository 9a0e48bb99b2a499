package connstate

import (
	"net"
	"sync"
	"time"
)

// pollEvery is how often the poller looks at each watched connection.
const pollEvery = 250 * time.Millisecond

// poller looks at every watched connection in turn from one goroutine,
// which runs only while something is watched: where the system cannot say
// when a peer leaves, a quarter second late is still one goroutine for all.
type poller struct {
	mu      sync.Mutex
	next    uint64
	watched map[uint64]polledConn
	running bool
}

type polledConn struct {
	c    net.Conn
	gone func()
}

var polled poller

func (p *poller) add(c net.Conn, gone func()) (stop func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watched == nil {
		p.watched = map[uint64]polledConn{}
	}
	p.next++
	id := p.next
	p.watched[id] = polledConn{c: c, gone: gone}
	if !p.running {
		p.running = true
		go p.run()
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.watched, id)
	}
}

func (p *poller) run() {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for range tick.C {
		p.mu.Lock()
		if len(p.watched) == 0 {
			p.running = false
			p.mu.Unlock()
			return
		}
		ids := make([]uint64, 0, len(p.watched))
		conns := make([]polledConn, 0, len(p.watched))
		for id, w := range p.watched {
			ids, conns = append(ids, id), append(conns, w)
		}
		p.mu.Unlock()
		for i, w := range conns {
			if Open(w.c) {
				continue
			}
			p.mu.Lock()
			_, still := p.watched[ids[i]]
			delete(p.watched, ids[i])
			p.mu.Unlock()
			if still {
				go w.gone()
			}
		}
	}
}
