//go:build !linux

package extract

import "github.com/tetratelabs/wazero/experimental"

// pdfMemoryAllocator is wazero's own (linear memory in the Go heap) where
// pdf_memory_linux.go's reservations are not built.
func pdfMemoryAllocator() experimental.MemoryAllocator { return nil }

func pdfInstanceBusy() {}
func pdfInstanceIdle() {}
