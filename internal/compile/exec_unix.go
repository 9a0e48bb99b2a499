//go:build unix

package compile

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the program in its own process group and kills the whole
// group when the job's context ends, so a wrapper script's children die too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killGroup ends what is left of the group after the program exited; a
// group with no members left answers ESRCH, which is the normal case.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
