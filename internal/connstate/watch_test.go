package connstate

import (
	"runtime"
	"testing"
	"time"
)

// TestWatchSeesThePeersClose: a watched connection's close reaches its
// callback at once, and watching many connections costs no goroutine each.
func TestWatchSeesThePeersClose(t *testing.T) {
	const n = 50
	before := runtime.NumGoroutine()
	gone := make(chan int, n)
	peers := make([]func() error, n)
	for i := 0; i < n; i++ {
		c, s := pair(t)
		peers[i] = c.Close
		i := i
		Watch(s, func() { gone <- i })
	}
	if extra := runtime.NumGoroutine() - before; extra > 2 {
		t.Fatalf("%d watched connections took %d goroutines", n, extra)
	}
	select {
	case i := <-gone:
		t.Fatalf("connection %d reported gone while open", i)
	case <-time.After(100 * time.Millisecond):
	}
	start := time.Now()
	if err := peers[7](); err != nil {
		t.Fatal(err)
	}
	select {
	case i := <-gone:
		if i != 7 {
			t.Fatalf("connection %d reported gone, 7 was closed", i)
		}
		t.Logf("seen %v after the close", time.Since(start))
	case <-time.After(2 * time.Second):
		t.Fatal("the peer's close was not seen")
	}
}

// TestWatchStopped: a watch stopped before the peer closes never calls,
// and the stop is safe after the connection's own close.
func TestWatchStopped(t *testing.T) {
	c, s := pair(t)
	called := make(chan struct{}, 1)
	stop := Watch(s, func() { called <- struct{}{} })
	stop()
	_ = c.Close()
	select {
	case <-called:
		t.Fatal("a stopped watch was called")
	case <-time.After(300 * time.Millisecond):
	}
	c2, s2 := pair(t)
	stop = Watch(s2, func() {})
	_ = s2.Close()
	stop()
	_ = c2.Close()
}

// TestWatchSeesAnEarlierClose: a peer that left before the watch began
// is reported too.
func TestWatchSeesAnEarlierClose(t *testing.T) {
	c, s := pair(t)
	_ = c.Close()
	time.Sleep(50 * time.Millisecond)
	called := make(chan struct{})
	Watch(s, func() { close(called) })
	select {
	case <-called:
	case <-time.After(2 * time.Second):
		t.Fatal("a connection closed before its watch was not reported")
	}
}

// TestPollerSeesThePeersClose: where no epoll set can be had, the shared
// poll finds the close within a few of its rounds.
func TestPollerSeesThePeersClose(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skip("no peek on this system")
	}
	c, s := pair(t)
	c2, s2 := pair(t)
	called := make(chan string, 2)
	polled.add(s, func() { called <- "closed" })
	stop := polled.add(s2, func() { called <- "stopped" })
	stop()
	_ = c2.Close()
	_ = c.Close()
	select {
	case what := <-called:
		if what != "closed" {
			t.Fatalf("the %s connection was reported", what)
		}
	case <-time.After(5 * pollEvery):
		t.Fatal("the poll did not see the close")
	}
	select {
	case what := <-called:
		t.Fatalf("the %s connection was reported too", what)
	case <-time.After(2 * pollEvery):
	}
}
