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
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// residentBytes reads a process's resident set size from /proc (Linux);
// elsewhere it reports nothing and only the child's own soft limit holds.
func residentBytes(pid int) (int64, bool) {
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
