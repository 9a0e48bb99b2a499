package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// usage is what a side of a benchmark cost: wall time, CPU of the process
// and its children, and peak resident sets.
type usage struct {
	wall     time.Duration
	cpu      time.Duration
	peakSelf int64 // bytes, VmHWM of this process during the phase
	peakKid  int64 // bytes, the largest child's peak resident set
	// machine is the CPU every process of the machine used meanwhile: it
	// counts the database server's work, which is no child of this one.
	machine time.Duration
}

// meter measures one phase of this process: its CPU (getrusage), the CPU
// of children it has waited for, of the children still alive (the
// extraction workers' resident children, read from /proc), and its own
// peak resident set from a reset (clear_refs 5).
type meter struct {
	start     time.Time
	machine   time.Duration
	self, kid syscall.Rusage
	live      map[int]time.Duration
	// Children's peaks are sampled while they live: a waited-for child's
	// getrusage peak is this process's, whose memory the child shared
	// until it ran its program (os/exec starts children with vfork).
	stopSampler chan struct{}
	sampled     chan int64
}

func startMeter() *meter {
	// What earlier phases freed goes back to the system first, so the
	// peak is this phase's.
	debug.FreeOSMemory()
	resetPeak()
	m := &meter{start: time.Now(), machine: machineCPU(), live: liveChildren(), stopSampler: make(chan struct{}), sampled: make(chan int64, 1)}
	syscall.Getrusage(syscall.RUSAGE_SELF, &m.self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &m.kid)
	go func() {
		var peak int64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			for pid := range liveChildren() {
				peak = max(peak, statusKB(strconv.Itoa(pid), "VmHWM")<<10)
			}
			select {
			case <-m.stopSampler:
				m.sampled <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *meter) stop() usage {
	var self, kid syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kid)
	u := usage{wall: time.Since(m.start), peakSelf: statusKB("self", "VmHWM") << 10, machine: machineCPU() - m.machine}
	u.cpu = cpuOf(&self) - cpuOf(&m.self) + cpuOf(&kid) - cpuOf(&m.kid)
	for pid, cpu := range liveChildren() {
		u.cpu += cpu - m.live[pid]
	}
	close(m.stopSampler)
	u.peakKid = <-m.sampled
	return u
}

func cpuOf(r *syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// resetPeak sets VmHWM back to the current resident set.
func resetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// statusKB reads a kB field of /proc/<pid>/status.
func statusKB(pid, field string) int64 {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// liveChildren maps this process's living children to the CPU they used.
func liveChildren() map[int]time.Duration {
	out := map[int]time.Duration{}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(s)
			if cpu, ok := procCPU(pid); ok {
				out[pid] = cpu
			}
		}
	}
	return out
}

// procCPU is a process's user and system time from /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// Fields after the command name, which may hold spaces: state is 3,
	// utime 14, stime 15.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const tick = 100 // USER_HZ
	return time.Duration(ut+st) * time.Second / tick, true
}

// machineCPU is the busy time of all the machine's processors from
// /proc/stat: everything but idle and iowait.
func machineCPU() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var busy int64
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i != 3 && i != 4 && i < 8 { // idle, iowait; guest time is already in user
			busy += n
		}
	}
	const tick = 100 // USER_HZ
	return time.Duration(busy) * time.Second / tick
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
