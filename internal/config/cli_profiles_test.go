package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCLIProfiles(t *testing.T) {
	t.Parallel()
	load := func(yaml string) (Config, error) {
		path := filepath.Join(t.TempDir(), "k.yaml")
		os.WriteFile(path, []byte(yaml), 0o600)
		return Load(path, env(nil))
	}
	c, err := load(`
cli_profiles:
  - name: codex
    argv: ["codex", "exec", "--model", "{model}", "-c", "model_reasoning_effort={effort}", "-"]
    models: [gpt-5-codex]
    efforts: [low, medium, high]
    env: [PATH, HOME, CODEX_API_KEY]
`)
	if err != nil || len(c.CLIProfiles) != 1 || c.CLIProfiles[0].Argv[3] != "{model}" || len(c.CLIProfiles[0].Efforts) != 3 ||
		strings.Join(c.CLIProfiles[0].Env, ",") != "PATH,HOME,CODEX_API_KEY" {
		t.Fatalf("%+v %v", c.CLIProfiles, err)
	}
	for _, bad := range []struct{ yaml, field string }{
		{"cli_profiles:\n  - name: x\n    argv: []\n", "cli_profiles[0].argv"},
		{"cli_profiles:\n  - name: ''\n    argv: [a]\n", "cli_profiles[0].name"},
		{"cli_profiles:\n  - name: x\n    argv: [a, '{prompt}']\n", "cli_profiles[0].argv"},
		{"cli_profiles:\n  - name: x\n    argv: [a]\n    models: ['--danger']\n", "cli_profiles[0]"},
		{"cli_profiles:\n  - name: x\n    argv: [a]\n  - name: x\n    argv: [b]\n", "cli_profiles[1].name"},
		{"cli_profiles:\n  - name: x\n    argv: [a]\n    env: [KB_JWT_SECRET]\n", "cli_profiles[0].env"},
		{"cli_profiles:\n  - name: x\n    argv: [a]\n    env: ['PATH=/tmp']\n", "cli_profiles[0].env"},
	} {
		if _, err := load(bad.yaml); err == nil || !strings.HasPrefix(err.Error(), bad.field) {
			t.Errorf("%q: %v, want %s", bad.yaml, err, bad.field)
		}
	}
}
