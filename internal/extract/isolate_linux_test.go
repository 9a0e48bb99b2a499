package extract

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A server killed outright (the OOM killer, SIGKILL from a supervisor)
// must not leave its parse child running, writing into the data dir.
func TestChildDiesWithItsParent(t *testing.T) {
	t.Parallel()
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), "KB_TEST_EXTRACT_PARENT=1")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var child int
	for deadline := time.Now().Add(30 * time.Second); child == 0; time.Sleep(20 * time.Millisecond) {
		if kids := childrenOf(parent.Process.Pid); len(kids) > 0 {
			child = kids[0]
		} else if time.Now().After(deadline) {
			parent.Process.Kill()
			t.Fatal("the parent started no child")
		}
	}
	parent.Process.Kill()
	parent.Wait()
	for deadline := time.Now().Add(10 * time.Second); alive(child); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("child %d still runs 10 s after its parent was killed", child)
		}
	}
}

// alive reports whether pid runs (a zombie has ended).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}
