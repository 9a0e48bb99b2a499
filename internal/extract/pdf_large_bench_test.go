//go:build unix

package extract

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkPDFLargeRatio is #38's goal as one figure: the 40 MB PDF read
// by the product's extraction and by pdftotext alone, alternately, the
// order turned every iteration so a burst of load on the shared machine
// falls on every side. The product is read twice: in process (its wall
// and CPU seconds, its own and its children's) and through a resident
// extraction child (wall seconds: the child is not waited for, so its CPU
// is not counted), with the ratios to pdftotext (goal: ≤ 2×) and the
// recall against pdftotext's text. KB_BENCH_PDFIUM=1 adds PDFium alone,
// the engine when poppler is not installed.
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
	iso := testIsolation()
	iso.Timeout, iso.MemoryBytes = 10*time.Minute, 4<<30
	lim := Limits{MaxTextBytes: 1 << 30}
	iso.Limits = lim
	type side struct {
		name      string
		wall, cpu time.Duration
		text      string
		read      func() (string, error)
	}
	sides := []*side{
		{name: "product", read: func() (string, error) {
			res, err := Extract(context.Background(), "large.pdf", raw, lim)
			return res.Text, err
		}},
		{name: "isolated", read: func() (string, error) {
			res, err := iso.Run(context.Background(), "large.pdf", raw)
			return res.Text, err
		}},
		{name: "pdftotext", read: func() (string, error) {
			cmd := exec.Command("pdftotext", "-enc", "UTF-8", path, "-")
			cmd.Stdout = io.Discard
			return "", cmd.Run()
		}},
	}
	if os.Getenv("KB_BENCH_PDFIUM") == "1" {
		sides = append(sides, &side{name: "pdfium", read: func() (string, error) {
			res, err := Extract(context.Background(), "large.pdf", raw, Limits{MaxTextBytes: 1 << 30, PDFiumOnly: true})
			return res.Text, err
		}})
	}
	if _, err := sides[1].read(); err != nil { // the child's start is not the file's time
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		for k := range sides {
			s := sides[(k+i)%len(sides)]
			// The resident child must not retire (idle) and be reaped in
			// another side's window: its CPU would count there.
			b.StopTimer()
			if _, err := iso.Run(context.Background(), "keep.txt", []byte("awake")); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			start, cpu := time.Now(), processCPU()
			text, err := s.read()
			if err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
			s.wall, s.cpu, s.text = s.wall+time.Since(start), s.cpu+processCPU()-cpu, text
		}
	}
	b.StopTimer()
	n := float64(b.N)
	base := sides[2]
	for _, s := range sides {
		b.ReportMetric(s.wall.Seconds()/n, s.name+"-s/op")
		if s != base {
			b.ReportMetric(s.wall.Seconds()/base.wall.Seconds(), s.name+"-wall-ratio")
			b.ReportMetric(recall(ref, s.text), s.name+"-recall")
		}
		if s.name != "isolated" {
			b.ReportMetric(s.cpu.Seconds()/n, s.name+"-cpu-s/op")
			if s != base {
				b.ReportMetric(s.cpu.Seconds()/base.cpu.Seconds(), s.name+"-cpu-ratio")
			}
		}
	}
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average %s", strings.TrimSpace(string(load)))
	}
}

// processCPU is the user and system time this process and its children
// that have ended (pdftotext) have used so far.
func processCPU() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
