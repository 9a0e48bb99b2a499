package scratch

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSweepRemovesWhatDeadProcessesLeft: a process killed with -9 while it
// wrote into its scratch directory leaves it behind; the next Sweep removes
// it and says how large it was. A live process's directory (another child,
// and this process's own) is never touched, whatever its age.
func TestSweepRemovesWhatDeadProcessesLeft(t *testing.T) {
	parent := t.TempDir()
	mine, err := Claim(parent, "proc")
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Release()
	if err := os.WriteFile(filepath.Join(mine.Path, "upload-1"), make([]byte, 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	dead, deadDir := startChild(t, parent)
	live, liveDir := startChild(t, parent)
	defer live.Process.Kill()
	if err := dead.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = dead.Wait()
	// A directory of an older version, without an owner, young: kept.
	legacy := filepath.Join(parent, "proc-legacy")
	if err := os.Mkdir(legacy, 0o700); err != nil {
		t.Fatal(err)
	}

	got, err := Sweep(parent, "proc")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != deadDir || got[0].Bytes < 1<<20 {
		t.Fatalf("swept %+v, want only %s with its 1 MiB", got, deadDir)
	}
	for _, d := range []string{mine.Path, liveDir, legacy} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", deadDir, err)
	}
	mine.Release()
	if _, err := os.Stat(mine.Path); !os.IsNotExist(err) {
		t.Errorf("Release left %s: %v", mine.Path, err)
	}
}

// startChild runs this test binary as a process that claims a directory
// under parent, writes 1 MiB into it, says where, and waits to be killed.
func startChild(t *testing.T, parent string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestScratchChild$")
	cmd.Env = append(os.Environ(), "KS_SCRATCH_PARENT="+parent)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "dir=") {
		t.Fatalf("child said %q: %v", line, err)
	}
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "dir="))
}

// TestScratchChild is the process startChild runs; alone it does nothing.
func TestScratchChild(t *testing.T) {
	parent := os.Getenv("KS_SCRATCH_PARENT")
	if parent == "" {
		t.Skip("started by TestSweepRemovesWhatDeadProcessesLeft")
	}
	d, err := Claim(parent, "proc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "upload-1"), make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("dir=%s\n", d.Path)
	select {}
}
