package connstate

import (
	"net"
	"sync"
	"syscall"
)

// Watch calls gone, from a goroutine of its own, once c's peer has closed
// or reset it. One goroutine waits on an epoll set for every watched
// connection, so a connection nobody reads still costs nothing but its
// entry. stop ends the watch; call it before closing c.
func Watch(c net.Conn, gone func()) (stop func()) {
	if stop, ok := epoll.add(c, gone); ok {
		return stop
	}
	return polled.add(c, gone)
}

// epollWatcher is the process's epoll set of watched connections. Each
// entry carries a number of its own rather than its descriptor: a closed
// descriptor's number is soon another connection's.
type epollWatcher struct {
	once    sync.Once
	fd      int
	mu      sync.Mutex
	next    int32
	watched map[int32]epollConn
}

type epollConn struct {
	rc   syscall.RawConn
	gone func()
}

var epoll epollWatcher

// peerLeft is what a watched socket reports: the peer's close (RDHUP), a
// reset or error (always reported). Edge-triggered, so bytes arriving
// are not an event and an event comes once.
const peerLeft = syscall.EPOLLRDHUP | syscall.EPOLLET&0xffffffff

func (w *epollWatcher) add(c net.Conn, gone func()) (func(), bool) {
	w.once.Do(func() {
		fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		w.fd = -1
		if err == nil {
			w.fd, w.watched = fd, map[int32]epollConn{}
			go w.run()
		}
	})
	rc, _ := rawConn(c)
	if w.fd < 0 || rc == nil {
		return nil, false
	}
	w.mu.Lock()
	w.next++
	if w.next <= 0 {
		w.next = 1
	}
	id := w.next
	w.watched[id] = epollConn{rc: rc, gone: gone}
	w.mu.Unlock()
	var err error
	cerr := rc.Control(func(fd uintptr) {
		ev := syscall.EpollEvent{Events: uint32(peerLeft), Fd: id}
		err = syscall.EpollCtl(w.fd, syscall.EPOLL_CTL_ADD, int(fd), &ev)
	})
	if cerr != nil || err != nil {
		w.forget(id)
		return nil, false
	}
	return func() {
		if w.forget(id) {
			w.remove(rc)
		}
	}, true
}

// forget drops the entry; false when it was gone already.
func (w *epollWatcher) forget(id int32) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.watched[id]
	delete(w.watched, id)
	return ok
}

// remove takes the socket out of the set; a socket already closed has
// left it by itself (and Control then fails).
func (w *epollWatcher) remove(rc syscall.RawConn) {
	_ = rc.Control(func(fd uintptr) { _ = syscall.EpollCtl(w.fd, syscall.EPOLL_CTL_DEL, int(fd), nil) })
}

func (w *epollWatcher) run() {
	evs := make([]syscall.EpollEvent, 64)
	for {
		n, err := syscall.EpollWait(w.fd, evs, -1)
		if err != nil {
			continue // EINTR
		}
		for _, ev := range evs[:n] {
			w.mu.Lock()
			c, ok := w.watched[ev.Fd]
			delete(w.watched, ev.Fd)
			w.mu.Unlock()
			if ok {
				w.remove(c.rc)
				go c.gone()
			}
		}
	}
}
