//go:build linux

package extract

import (
	"sync"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// wazero grows a linear memory held in the Go heap by appending to it, so
// a PDF instance that grows to a few hundred megabytes copies and clears
// its memory again and again, and the Go collector counts all of it. Here
// each instance reserves its ceiling of address space once, outside the
// Go heap, and grows in place by opening more of it to reads and writes;
// the kernel hands out zeroed pages as they are first touched.
//
// A kill (deadline, cancel) closes an instance from another goroutine
// while its call may still be running, so a freed reservation is not
// unmapped at once: its pages go back to the kernel (a late write lands on
// a fresh zero page and is lost with the instance) and its address space
// is unmapped only once no instance is in use, when no call can still be
// inside one.
func pdfMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		if m := reserveLinearMemory(max); m != nil {
			return m
		}
		return &heapMemory{buf: make([]byte, 0, capacity)}
	})
}

// mappedMemory is one instance's reservation: buf is all of it, readable
// and writable up to open bytes.
type mappedMemory struct {
	buf  []byte
	open uint64
}

func reserveLinearMemory(max uint64) *mappedMemory {
	if max == 0 || max > 1<<32 {
		return nil
	}
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return &mappedMemory{buf: buf}
}

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	if size > m.open {
		if err := syscall.Mprotect(m.buf[m.open:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.open = size
	}
	return m.buf[:size:size]
}

func (m *mappedMemory) Free() {
	_ = syscall.Madvise(m.buf[:m.open], syscall.MADV_DONTNEED)
	freed.mu.Lock()
	defer freed.mu.Unlock()
	freed.bufs = append(freed.bufs, m.buf)
	freed.unmapIfQuiet()
}

// freedMemory counts the instances in use (from acquire to release or
// discard) and holds the reservations freed while some were.
type freedMemory struct {
	mu    sync.Mutex
	inUse int
	bufs  [][]byte
}

var freed freedMemory

// pdfInstanceBusy and pdfInstanceIdle bracket one instance's use.
func pdfInstanceBusy() {
	freed.mu.Lock()
	defer freed.mu.Unlock()
	freed.inUse++
}

func pdfInstanceIdle() {
	freed.mu.Lock()
	defer freed.mu.Unlock()
	freed.inUse--
	freed.unmapIfQuiet()
}

// unmapIfQuiet unmaps the freed reservations once no instance is in use;
// the caller holds f.mu.
func (f *freedMemory) unmapIfQuiet() {
	if f.inUse > 0 {
		return
	}
	for _, b := range f.bufs {
		_ = syscall.Munmap(b)
	}
	f.bufs = nil
}

// heapMemory is a linear memory in the Go heap, grown as wazero grows its
// own: where address space cannot be reserved.
type heapMemory struct{ buf []byte }

func (m *heapMemory) Reallocate(size uint64) []byte {
	if n := int(size); n > len(m.buf) {
		m.buf = append(m.buf, make([]byte, n-len(m.buf))...)
	}
	return m.buf[:size]
}

func (m *heapMemory) Free() { m.buf = nil }
