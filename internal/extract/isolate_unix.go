//go:build unix

package extract

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// configureChild gives the child its own process group, killed whole.
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd)
}

// killChild kills a started child's process group: what it started (the
// OCR engine) dies with it.
func killChild(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// residentBytes reads the resident set size of a process and all its
// descendants (the OCR engine the child starts counts against the same
// ceiling) from /proc (Linux); elsewhere it reports nothing and only the
// child's own soft limit holds.
func residentBytes(pid int) (int64, bool) {
	total, ok := residentOne(pid)
	if !ok {
		return 0, false
	}
	for _, c := range childrenOf(pid) {
		if n, ok := residentBytes(c); ok {
			total += n
		}
	}
	return total, true
}

// childrenOf lists a process's children from every thread's children file.
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

func residentOne(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// limitChildMemory makes the child's garbage collector work hard before
// the parent's ceiling is reached.
func limitChildMemory(ceiling int64) {
	if ceiling > 0 {
		debug.SetMemoryLimit(ceiling * 3 / 4)
	}
}
