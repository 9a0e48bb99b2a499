//go:build !unix

package compile

import "os/exec"

// ownGroup keeps exec's default: the program itself is killed, but not
// children it started (there are no process groups to kill here).
func ownGroup(*exec.Cmd) {}

func killGroup(*exec.Cmd) {}

// cliUser has no meaning without Unix credentials.
type cliUser struct{}

func lookupCLIUser(string) (cliUser, error) { return cliUser{}, nil }

func (cliUser) apply(*exec.Cmd, string) error { return nil }
