//go:build unix

package compile

import (
	"os/exec"
	"syscall"
)

// killGroup runs the program in its own process group and kills the whole
// group when the job's context ends, so a wrapper script's children die too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
