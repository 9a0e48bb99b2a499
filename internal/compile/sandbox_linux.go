//go:build linux

package compile

import "golang.org/x/sys/unix"

// ProtectServer makes the server undumpable: its /proc entries (environ,
// cmdline, maps, mem) become root's and processes of the same user may not
// ptrace it, so a CLI program running as the server's user cannot read the
// server's secrets through /proc/$PPID. It also turns off core dumps, which
// would hold the same secrets.
func ProtectServer() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
