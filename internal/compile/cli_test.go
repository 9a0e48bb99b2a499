//go:build unix

package compile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/store"
)

// script writes an executable shell script to a temporary directory that
// the account CLI programs run as can reach.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(reachableDir(t), "fake-cli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// reachableDir is a temporary directory every user may enter: CLI
// programs run as nobody when tests run as root, and t.TempDir's are the
// test user's alone.
func reachableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "knowspace-cli-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCLIExecutor(t *testing.T) {
	ok := script(t, `input=$(cat)
echo "model=$1 effort=$2"
case "$input" in *"Summarize the document"*) echo "saw prompt";; esac`)
	cases := []struct {
		name    string
		argv    []string
		timeout time.Duration
		want    string
		code    string
	}{
		{"success", []string{ok, "m1", "high"}, 5 * time.Second, "model=m1 effort=high\nsaw prompt", ""},
		{"non-zero exit", []string{script(t, `cat >/dev/null; echo "first line" >&2; echo "quota exceeded for key" >&2; exit 3`)},
			5 * time.Second, "", "cli_failed"},
		{"oversize output", []string{script(t, `cat >/dev/null; head -c 300000 /dev/zero | tr '\0' a`)}, 5 * time.Second, "", "output_too_large"},
		{"empty output", []string{script(t, `cat >/dev/null; echo "nothing to say" >&2`)}, 5 * time.Second, "", "empty_output"},
		{"missing program", []string{filepath.Join(t.TempDir(), "nope")}, 5 * time.Second, "", "bad_configuration"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
			defer cancel()
			out, err := cliExecutor{argv: c.argv}.run(ctx, "system text", "Summarize the document kb://x")
			if c.code == "" {
				if err != nil || out != c.want {
					t.Fatalf("got %q, %v", out, err)
				}
				return
			}
			var f *Failure
			if !errors.As(err, &f) || f.Code != c.code {
				t.Fatalf("got %d bytes, %v; want %s", len(out), err, c.code)
			}
			if c.code == "cli_failed" && (!strings.Contains(f.Message, "status 3") || !strings.Contains(f.Message, "quota exceeded")) {
				t.Fatalf("stderr tail missing: %s", f.Message)
			}
		})
	}
	t.Run("timeout kills the process group", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := cliExecutor{argv: []string{script(t, `sleep 30 & sleep 30; echo late`)}}.run(ctx, "s", "p")
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
			t.Fatalf("after %v: %v", time.Since(start), err)
		}
	})
}

func TestCLISandbox(t *testing.T) {
	t.Setenv("KB_JWT_SECRET", "server-secret-that-must-stay-in-0123456789")
	t.Setenv("KB_DATABASE_DSN", "postgres://secret@db/kb")
	t.Setenv("OPENAI_API_KEY", "sk-provider")
	t.Setenv("CODEX_API_KEY", "ck-allowed")
	t.Setenv("HOME", "/home/allowed")
	t.Setenv("KS_TEST_UNSET", "")
	os.Unsetenv("KS_TEST_UNSET")
	report := filepath.Join(t.TempDir(), "report")
	// The fake CLI reports what it was given: environment, cwd and the
	// cwd's contents, and whether it can write there.
	cli := script(t, `cat >/dev/null
{ env; echo "cwd=$(pwd)"; echo "files=$(ls -A)"; echo x > own-file && echo "writable=yes"; } > "$1"
echo done`)
	out, err := cliExecutor{argv: []string{cli, report}, env: []string{"PATH", "HOME", "CODEX_API_KEY", "KS_TEST_UNSET"}}.run(context.Background(), "s", "p")
	if err != nil || out != "done" {
		t.Fatalf("%q %v", out, err)
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var cwd string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "cwd":
			cwd = v
		case "files":
			if v != "" {
				t.Errorf("the working directory was not empty: %q", v)
			}
		case "writable", "PWD", "OLDPWD": // the shell itself sets PWD
		default:
			names = append(names, k)
			if k == "CODEX_API_KEY" && v != "ck-allowed" || k == "HOME" && v != "/home/allowed" {
				t.Errorf("%s=%s", k, v)
			}
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "CODEX_API_KEY,HOME,PATH" {
		t.Fatalf("the child saw %v, want only the allowlisted CODEX_API_KEY, HOME, PATH\n%s", names, raw)
	}
	if !strings.Contains(string(raw), "writable=yes") {
		t.Errorf("the private directory was not writable:\n%s", raw)
	}
	if wd, _ := os.Getwd(); cwd == "" || cwd == wd || !strings.Contains(filepath.Base(cwd), "knowspace-cli-") {
		t.Fatalf("cwd %q is not a private directory", cwd)
	}
	if _, err := os.Stat(cwd); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the private directory %s is still there: %v", cwd, err)
	}

	t.Run("no env listed means an empty environment", func(t *testing.T) {
		cli := script(t, `cat >/dev/null; env | grep -v '^PWD=' | wc -l`)
		out, err := cliExecutor{argv: []string{cli}}.run(context.Background(), "s", "p")
		if err != nil || strings.TrimSpace(out) != "0" {
			t.Fatalf("%q %v", out, err)
		}
	})
}

func TestCLIGrandchildKilled(t *testing.T) {
	cases := []struct {
		name string
		body string
		stop func(context.CancelFunc)
	}{
		// The program waits for its background child; cancel comes first.
		{"on cancel", `cat >/dev/null; sleep 30 & echo $! > "$1"; wait`, func(c context.CancelFunc) { time.Sleep(300 * time.Millisecond); c() }},
		// The program exits and leaves its child behind.
		{"after exit", `cat >/dev/null; sleep 30 >/dev/null 2>&1 & echo $! > "$1"; echo ok`, func(context.CancelFunc) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go c.stop(cancel)
			start := time.Now()
			_, err := cliExecutor{argv: []string{script(t, c.body), pidFile}}.run(ctx, "s", "p")
			if c.name == "on cancel" && !errors.Is(err, context.Canceled) {
				t.Fatalf("%v", err)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
			raw, _ := os.ReadFile(pidFile)
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil {
				t.Fatalf("no grandchild pid: %q", raw)
			}
			deadline := time.Now().Add(3 * time.Second)
			for alive(pid) {
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("grandchild %d survived", pid)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// alive tells whether pid runs; a zombie waiting for its reaper is dead.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func TestCLIArgvOnlyAllowedValues(t *testing.T) {
	p := config.CLIProfile{Name: "codex", Argv: []string{"codex", "exec", "--model", "{model}", "-c", "model_reasoning_effort={effort}", "-"},
		Models: []string{"gpt-5-codex"}, Efforts: []string{"low", "high"}}
	argv, err := cliArgv(p, "gpt-5-codex", "low")
	if err != nil || strings.Join(argv, " ") != "codex exec --model gpt-5-codex -c model_reasoning_effort=low -" {
		t.Fatalf("%v %v", argv, err)
	}
	for _, bad := range [][2]string{{"gpt-4", "low"}, {"gpt-5-codex", "max"}, {"gpt-5-codex; rm -rf /", "low"}} {
		if _, err := cliArgv(p, bad[0], bad[1]); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}

func TestCLIJobEndToEnd(t *testing.T) {
	cli := script(t, `cat >/dev/null; echo "summary by $1"`)
	e := newEnv(t, store.DialectSQLite, func(o *Options) {
		o.CLIProfiles = []config.CLIProfile{{Name: "fakecli", Argv: []string{cli, "{model}"}, Models: []string{"m1", "m2"}}}
	})
	e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
	e.start(1)
	j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}, Executor: "cli", CLIProfile: "fakecli", Model: "m2"}).Jobs[0]
	done := e.wait(e.alice, j.ID, store.JobSucceeded, store.JobFailed)
	if done.State != store.JobSucceeded {
		t.Fatalf("%+v", done.Error)
	}
	sum := e.read(e.alice, "kb://me/wiki/d/a.md")
	if !strings.Contains(sum, "summary by m2") || !strings.Contains(sum, `model: "fakecli:m2"`) || !strings.Contains(sum, "executor: cli") {
		t.Fatalf("%s", sum)
	}
	if e.chatCount() != 0 {
		t.Fatal("the cli job called the LLM")
	}
}
