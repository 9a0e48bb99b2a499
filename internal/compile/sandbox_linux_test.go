//go:build linux

package compile

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const sandboxSecret = "server-secret-0123456789-must-not-leak"

// TestCLICannotReadServerSecrets runs the test binary again as a server
// whose environment holds a secret, and a CLI profile that tries to read
// the server through /proc/$PPID: as root the program runs as another user;
// as an ordinary user the server is not dumpable, so its /proc entries are
// root's. The unprotected server shows the attack works.
func TestCLICannotReadServerSecrets(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test runs the server as root and as another user")
	}
	// Everything the other user runs must be reachable by it.
	dir := reachableDir(t)
	bin := filepath.Join(dir, "server.test")
	copyFile(t, bin)
	cli := filepath.Join(dir, "cli")
	if err := os.WriteFile(cli, []byte(`#!/bin/sh
cat >/dev/null
for f in environ cmdline maps mem; do cat /proc/$PPID/$f >/dev/null 2>&1 && echo "read $f"; done
tr '\0' '\n' </proc/$PPID/environ 2>/dev/null | grep KB_JWT_SECRET
echo "uid=$(id -u)"
`), 0o755); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name        string
		asNobody    bool
		unprotected bool
		leak        bool
	}{
		{"server as root", false, false, false},
		{"server as an ordinary user", true, false, false},
		{"an unprotected server leaks", true, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-test.run=^TestSandboxServerChild$", "-test.v")
			cmd.Env = []string{"KB_JWT_SECRET=" + sandboxSecret, "KS_SANDBOX_CLI=" + cli, "PATH=/usr/bin:/bin", "TMPDIR=/tmp"}
			if c.unprotected {
				cmd.Env = append(cmd.Env, "KS_SANDBOX_UNPROTECTED=1")
			}
			if c.asNobody {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			}
			out, err := cmd.CombinedOutput()
			report := string(out)
			if err != nil || !strings.Contains(report, "uid=") {
				t.Fatalf("server child: %v\n%s", err, out)
			}
			leaked := strings.Contains(report, sandboxSecret) || strings.Contains(report, "read environ") || strings.Contains(report, "read mem")
			if leaked != c.leak {
				t.Fatalf("leaked=%v, want %v:\n%s", leaked, c.leak, out)
			}
			if !c.asNobody && !strings.Contains(report, "uid=65534") {
				t.Fatalf("a root server ran the program as root:\n%s", out)
			}
		})
	}
}

// TestSandboxServerChild is the server TestCLICannotReadServerSecrets
// starts; on its own it does nothing.
func TestSandboxServerChild(t *testing.T) {
	cli := os.Getenv("KS_SANDBOX_CLI")
	if cli == "" {
		t.Skip("started by TestCLICannotReadServerSecrets")
	}
	if os.Getenv("KS_SANDBOX_UNPROTECTED") == "" {
		if err := ProtectServer(); err != nil {
			t.Fatal(err)
		}
	}
	u, err := lookupCLIUser("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := cliExecutor{argv: []string{cli}, user: u}.run(ctx, "s", "p")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(out)
}

func copyFile(t *testing.T, to string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
