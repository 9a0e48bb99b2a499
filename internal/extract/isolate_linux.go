package extract

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill cmd when its parent dies, even by
// SIGKILL: an orphaned parser or OCR engine would run on to its deadline,
// writing into the data dir of a server that is gone.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
