package extract

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// PDFium runs as WebAssembly on wazero: no cgo, and a hostile file can at
// worst trap its own sandboxed instance, which has no file system and a
// bounded memory.
const (
	// PDFExtractor names the engine in every Result's provenance: the
	// PDFium build (chromium/8111) that go-pdfium v1.21.4 embeds.
	PDFExtractor = "pdfium/8111 (go-pdfium v1.21.4, wasm)"
	// pdfMemoryPages caps one instance's linear memory (64 KiB pages):
	// 1 GiB holds a 40 MB PDF several times over while keeping a
	// decompression bomb from taking the process's memory.
	pdfMemoryPages = 16384
)

var pdfEngine struct {
	mu       sync.Mutex
	cacheDir string
	pool     pdfium.Pool
	err      error
	startup  time.Duration
}

// SetPDFCacheDir makes the PDF engine keep its compiled machine code in dir
// and reuse it in later processes. Compiling pdfium.wasm costs a short-lived
// `knowspace extract` child most of its run time; with a warm cache the
// engine starts in a fraction of that. It takes effect only if called before
// the first PDF is read; "" (the default) compiles in memory every time.
func SetPDFCacheDir(dir string) {
	pdfEngine.mu.Lock()
	defer pdfEngine.mu.Unlock()
	pdfEngine.cacheDir = dir
}

// PDFEngineStartup returns how long the engine took to start in this
// process (compile or load the module), or 0 if it has not started.
func PDFEngineStartup() time.Duration {
	pdfEngine.mu.Lock()
	defer pdfEngine.mu.Unlock()
	return pdfEngine.startup
}

// StartPDFEngine starts the PDF engine now rather than at the first PDF,
// so a server can fill the compilation cache (SetPDFCacheDir) at boot,
// before any extraction child needs it.
func StartPDFEngine() error {
	_, err := pdfPool()
	return err
}

// pdfPool starts the engine on first use. A failure to start is permanent
// for the process: it is a broken build, not a property of a file.
func pdfPool() (pdfium.Pool, error) {
	pdfEngine.mu.Lock()
	defer pdfEngine.mu.Unlock()
	if pdfEngine.pool != nil || pdfEngine.err != nil {
		return pdfEngine.pool, pdfEngine.err
	}
	start := time.Now()
	rc := wazero.NewRuntimeConfig().
		// The embedded build lowers setjmp/longjmp to wasm exceptions.
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		// Lets a cancelled context stop a call in the middle of a page.
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(pdfMemoryPages)
	if pdfEngine.cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(pdfEngine.cacheDir)
		if err != nil {
			pdfEngine.err = fmt.Errorf("PDF engine cache %s: %w", pdfEngine.cacheDir, err)
			return nil, pdfEngine.err
		}
		rc = rc.WithCompilationCache(cache)
	}
	n := runtime.GOMAXPROCS(0)
	pool, err := webassembly.Init(webassembly.Config{
		Context:       experimental.WithMemoryAllocator(context.Background(), pdfMemoryAllocator()),
		MinIdle:       0,
		MaxIdle:       n,
		MaxTotal:      n,
		RuntimeConfig: rc,
		// No mount at all: the default would give PDFium the host's "/".
		FSConfig: wazero.NewFSConfig(),
		Stdout:   io.Discard,
		Stderr:   io.Discard,
		// A fresh instance per document: nothing one file did to the heap
		// survives into the next.
		ReuseWorkers: true,
	})
	if err != nil {
		pdfEngine.err = fmt.Errorf("PDF engine did not start: %w", err)
		return nil, pdfEngine.err
	}
	pdfEngine.pool, pdfEngine.startup = pool, time.Since(start)
	return pool, nil
}

// pdfInstance is one sandboxed PDFium bound to a context: when ctx ends,
// the running call is interrupted and the instance discarded.
type pdfInstance struct {
	pdfium.Pdfium
	stop   func() bool
	killed chan struct{} // closed once a kill has finished
	done   sync.Once     // the instance is no longer used
}

// acquirePDFInstance waits for a free instance while acquire lasts and
// binds it to ctx.
func acquirePDFInstance(ctx, acquire context.Context) (*pdfInstance, error) {
	pool, err := pdfPool()
	if err != nil {
		return nil, err
	}
	inst, err := pool.GetInstanceWithContext(acquire)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("PDF engine: %w", err)
	}
	pdfInstanceBusy()
	p := &pdfInstance{Pdfium: inst, killed: make(chan struct{})}
	p.stop = context.AfterFunc(ctx, func() {
		defer close(p.killed)
		_ = inst.Kill()
	})
	return p, nil
}

// release returns the instance; after a kill there is nothing left to close
// (Kill and Close must not run together).
func (p *pdfInstance) release() {
	defer p.done.Do(pdfInstanceIdle)
	if p.stop() {
		_ = p.Close()
		return
	}
	<-p.killed
}

// discard drops an instance whose state can no longer be trusted (a trap
// inside PDFium).
func (p *pdfInstance) discard() {
	defer p.done.Do(pdfInstanceIdle)
	if p.stop() {
		_ = p.Kill()
		return
	}
	<-p.killed
}
