//go:build unix

package extract

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkPDFLargeRatio is #38's goal as one figure: the 40 MB PDF read
// by PDFium and by pdftotext alternately, the order swapped every
// iteration so a burst of load on the shared machine falls on both sides.
// It reports each side's wall and CPU seconds per read and their ratios
// (goal: wall ≤ 2×), and PDFium's recall against pdftotext's text.
func BenchmarkPDFLargeRatio(b *testing.B) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		b.Skip("qpdf not installed (apt-get install -y qpdf): no 40 MB PDF to read")
	}
	path := largePDF(b, 40<<20)
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	ref, err := pdftotext(b, path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pdfPool(); err != nil {
		b.Fatal(err)
	}
	var ours, theirs, oursCPU, theirsCPU time.Duration
	var text string
	pdfium := func() {
		start, cpu := time.Now(), processCPU()
		res, err := Extract(context.Background(), "large.pdf", raw, Limits{MaxTextBytes: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		ours, oursCPU, text = ours+time.Since(start), oursCPU+processCPU()-cpu, res.Text
	}
	poppler := func() {
		start := time.Now()
		cmd := exec.Command("pdftotext", "-enc", "UTF-8", path, "-")
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		theirs += time.Since(start)
		theirsCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			pdfium()
			poppler()
		} else {
			poppler()
			pdfium()
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(ours.Seconds()/n, "pdfium-s/op")
	b.ReportMetric(theirs.Seconds()/n, "pdftotext-s/op")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "wall-ratio")
	b.ReportMetric(oursCPU.Seconds()/n, "pdfium-cpu-s/op")
	b.ReportMetric(theirsCPU.Seconds()/n, "pdftotext-cpu-s/op")
	b.ReportMetric(oursCPU.Seconds()/theirsCPU.Seconds(), "cpu-ratio")
	b.ReportMetric(recall(ref, text), "recall")
}

// processCPU is the user and system time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
