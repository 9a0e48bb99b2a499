//go:build unix

package compile

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
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

// cliUser is the account CLI programs run as; the zero value is the
// server's own.
type cliUser struct{ cred *syscall.Credential }

// lookupCLIUser resolves cli_user. Left empty, a server running as root
// runs programs as "nobody": root's children could read the server's
// memory and /proc entries whatever ProtectServer says.
func lookupCLIUser(name string) (cliUser, error) {
	if name == "" {
		if os.Geteuid() != 0 {
			return cliUser{}, nil
		}
		name = "nobody"
	}
	u, err := user.Lookup(name)
	if err != nil {
		return cliUser{}, fmt.Errorf("cli_user %q: %w", name, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return cliUser{}, fmt.Errorf("cli_user %q has no numeric uid and gid", name)
	}
	if int(uid) == os.Geteuid() {
		return cliUser{}, nil
	}
	return cliUser{cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}}, nil
}

// apply runs cmd as the user, who gets the private working directory.
func (u cliUser) apply(cmd *exec.Cmd, dir string) error {
	if u.cred == nil {
		return nil
	}
	if err := os.Chown(dir, int(u.cred.Uid), int(u.cred.Gid)); err != nil {
		return fmt.Errorf("cli working directory: %w", err)
	}
	cmd.SysProcAttr.Credential = u.cred
	return nil
}
