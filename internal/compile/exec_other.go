//go:build !unix

package compile

import "os/exec"

// killGroup keeps exec's default: the program itself is killed.
func killGroup(*exec.Cmd) {}
