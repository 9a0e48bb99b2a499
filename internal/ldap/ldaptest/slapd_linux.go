package ldaptest

import (
	"os/exec"
	"syscall"
)

// dieWithTest makes the kernel kill slapd when the test binary dies, so a
// test killed by its timeout leaves no directory running.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
