//go:build !unix

package extract

import (
	"os/exec"
	"runtime/debug"
)

func configureChild(cmd *exec.Cmd) { dieWithParent(cmd) }

func killChild(cmd *exec.Cmd) error { return cmd.Process.Kill() }

func residentBytes(int) (int64, bool) { return 0, false }

func limitChildMemory(ceiling int64) {
	if ceiling > 0 {
		debug.SetMemoryLimit(ceiling * 3 / 4)
	}
}
