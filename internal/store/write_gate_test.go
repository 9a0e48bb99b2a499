package store_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestBackgroundWritesYield: on SQLite a background transaction begins
// only once the foreground's have stopped for a moment, and a steady
// stream of foreground work delays it by a bounded time, never stops it.
func TestBackgroundWritesYield(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t, store.DialectSQLite)
	bg := store.Background(ctx)
	noop := func(*store.Store) error { return nil }

	var fgEnded atomic.Int64
	release := make(chan struct{})
	go func() {
		_ = st.InTx(ctx, func(*store.Store) error { <-release; return nil })
		fgEnded.Store(time.Now().UnixNano())
	}()
	time.Sleep(20 * time.Millisecond)
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	if err := st.InTx(bg, noop); err != nil {
		t.Fatal(err)
	}
	if fgEnded.Load() == 0 {
		t.Fatal("the background transaction ran while a foreground one was open")
	}

	// Foreground work that never pauses (a write staged and never done,
	// rather than a loop of transactions whose gaps a loaded machine
	// stretches past yieldQuiet): the background waits, then goes anyway.
	busy := st.Staging()
	defer busy()
	t0 := time.Now()
	err := st.InTx(bg, noop)
	waited := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if waited < 200*time.Millisecond || waited > 5*time.Second {
		t.Fatalf("under foreground work that never paused the background transaction waited %v: want it to give way, for a bounded time", waited)
	}
}

// TestBackgroundWaitsForStaging: an upload's body being stored counts as a
// write under way, so a background transaction waits until it is done,
// though no transaction of the upload has begun yet.
func TestBackgroundWaitsForStaging(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t, store.DialectSQLite)
	done := st.Staging()
	var stagedAt atomic.Int64
	go func() {
		time.Sleep(50 * time.Millisecond)
		stagedAt.Store(time.Now().UnixNano())
		done()
	}()
	if err := st.InTx(store.Background(ctx), func(*store.Store) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if stagedAt.Load() == 0 {
		t.Fatal("the background transaction ran while an upload was being staged")
	}
}
