package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// evalQuestions are the known-answer questions of the eval-search test,
// as an operator writes them: one a line, a blank line between, answers
// as paths below --uri or as kb:// URIs, one that names no file.
const evalQuestions = `{"question": "how do I read compressed files?", "answers": ["gzip.md"]}
{"question": "tar archives", "answers": ["kb://me/evaldocs/tar.md"]}

{"question": "reading and writing", "answers": ["gzip.md", "missing.md"]}
{"question": "which package handles gzip streams", "answers": ["kb://users/admin/evaldocs/gzip.md"]}
`

// TestEvalSearchCommand: knowspace eval-search scores the first admin's
// questions in each mode from the data directory: literal search finds
// the two questions written in the files' own words (recall 0.5), ranked
// search every one at rank 1, and meaning and hybrid say they are
// unavailable; --json prints the admin API's report; --user searches as
// another user, who cannot read the admin's folder; bad input exits
// non-zero naming what is wrong.
func TestEvalSearchCommand(t *testing.T) {
	needBinary(t)
	dataDir := t.TempDir()
	const password = "eval-admin-pw"
	env := []string{"KB_ADMIN_PASSWORD=" + password}
	s := startServer(t, dataDir, env...)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", password)
	if status, body := s.request("POST", "/api/v1/resources/folders", tok, map[string]string{"uri": "kb://me/evaldocs/"}); status != http.StatusCreated {
		t.Fatalf("mkdir: %d %s", status, body)
	}
	for name, text := range map[string]string{
		"gzip.md":  "# compress/gzip\n\nPackage gzip implements reading and writing of gzip format compressed files.\n",
		"tar.md":   "# archive/tar\n\nPackage tar implements access to tar archives.\n",
		"notes.md": "# Notes\n\nShopping list: apples, bread.\n",
	} {
		if status := s.upload(tok, "kb://me/evaldocs/", name, []byte(text)); status != http.StatusCreated {
			t.Fatalf("upload %s: %d", name, status)
		}
	}
	s.stop()
	dir := t.TempDir()
	questions := filepath.Join(dir, "questions.jsonl")
	write(t, questions, evalQuestions)

	out, err := runCLI(t, dataDir, env, "eval-search", "--questions", questions, "--uri", "kb://me/evaldocs/")
	if err != nil {
		t.Fatalf("eval-search: %v\n%s", err, out)
	}
	t.Logf("eval-search:\n%s", out)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`4 questions below kb://users/admin/evaldocs/, searched as admin`),
		regexp.MustCompile(`(?m)^mode\s+questions\s+recall@1\s+recall@5\s+recall@10\s+MRR@10\s+median ms\s+refused$`),
		regexp.MustCompile(`(?m)^literal\s+4\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+\d+\.\d\d\s+0$`),
		regexp.MustCompile(`(?m)^ranked\s+4\s+1\.000\s+1\.000\s+1\.000\s+1\.000\s+\d+\.\d\d\s+0$`),
		regexp.MustCompile(`(?m)^(hybrid|meaning)\s+unavailable: .*embedding model`),
		regexp.MustCompile(`(?m)^  line 4: missing\.md: no such file`),
	} {
		if !want.MatchString(out) {
			t.Errorf("output does not match %s:\n%s", want, out)
		}
	}

	// --modes and --json: the report of the admin API.
	out, err = runCLI(t, dataDir, env, "eval-search", "--questions", questions, "--uri", "kb://users/admin/evaldocs", "--modes", "ranked", "--json")
	if err != nil {
		t.Fatalf("eval-search --json: %v\n%s", err, out)
	}
	var rep struct {
		URI       string `json:"uri"`
		Questions int    `json:"questions"`
		Modes     []struct {
			Mode      string  `json:"mode"`
			RecallAt1 float64 `json:"recall_at_1"`
		} `json:"modes"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if rep.URI != "kb://users/admin/evaldocs/" || rep.Questions != 4 || len(rep.Modes) != 1 || rep.Modes[0].Mode != "ranked" || rep.Modes[0].RecallAt1 != 1 {
		t.Fatalf("--json report: %+v", rep)
	}

	if out, err := runCLI(t, dataDir, []string{"KB_NEW_PASSWORD=bob-password-1"}, "user", "add", "bob"); err != nil {
		t.Fatalf("user add bob: %v\n%s", err, out)
	}
	broken := filepath.Join(dir, "broken.jsonl")
	write(t, broken, `{"question": "tar archives", "answers": ["tar.md"]}`+"\n"+`{"question": "tar", "answers": [tar.md]}`+"\n")
	empty := filepath.Join(dir, "empty.jsonl")
	write(t, empty, "\n")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--questions", broken, "--uri", "kb://me/evaldocs/"}, "broken.jsonl: line 2: not a JSON object"},
		{[]string{"--questions", empty, "--uri", "kb://me/evaldocs/"}, "no questions"},
		{[]string{"--questions", filepath.Join(dir, "absent.jsonl"), "--uri", "kb://me/evaldocs/"}, "absent.jsonl"},
		{[]string{"--questions", questions, "--uri", "kb://me/evaldocs/", "--modes", "ranked,fuzzy"}, `"fuzzy" is not a search mode`},
		{[]string{"--questions", questions, "--uri", "kb://users/admin/evaldocs/", "--user", "bob"}, "no such resource"},
		{[]string{"--questions", questions, "--uri", "kb://me/evaldocs/", "--user", "nobody"}, `no user named "nobody"`},
		{[]string{"--questions", questions}, "--uri is required"},
	} {
		out, err := runCLI(t, dataDir, env, append([]string{"eval-search"}, c.args...)...)
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() == 0 || !strings.Contains(out, c.says) {
			t.Errorf("%v: want a non-zero exit saying %q, got %v\n%s", c.args, c.says, err, out)
		}
	}
}
