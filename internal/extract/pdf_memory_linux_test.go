//go:build linux

package extract

import (
	"testing"
	"unsafe"
)

// A PDF instance's memory grows in place (wazero's own copies it at each
// growth) and a reservation freed while an instance is in use stays
// mapped, so a call a kill interrupts cannot fault on it.
func TestPDFMemoryGrowsInPlace(t *testing.T) {
	m := reserveLinearMemory(1 << 30)
	if m == nil {
		t.Skip("no address space to reserve here")
	}
	small := m.Reallocate(64 << 10)
	small[100] = 7
	big := m.Reallocate(256 << 20)
	if len(big) != 256<<20 || unsafe.SliceData(big) != unsafe.SliceData(small) {
		t.Fatalf("grown to %d bytes at %p; want 256 MiB at %p", len(big), unsafe.SliceData(big), unsafe.SliceData(small))
	}
	if big[100] != 7 || big[len(big)-1] != 0 {
		t.Fatalf("contents after growth: %d, last %d", big[100], big[len(big)-1])
	}
	if m.Reallocate(2<<30) != nil {
		t.Fatal("grew past its reservation")
	}

	pdfInstanceBusy()
	m.Free()
	_ = big[100] // still mapped: a call interrupted by a kill may touch it
	freed.mu.Lock()
	held := len(freed.bufs)
	freed.mu.Unlock()
	pdfInstanceIdle()
	freed.mu.Lock()
	left := len(freed.bufs)
	freed.mu.Unlock()
	if held == 0 || left != 0 {
		t.Fatalf("freed reservations held while busy %d, after %d; want some, then none", held, left)
	}
}
