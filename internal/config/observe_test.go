package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestObservabilityDefaultsAreTextLogsAndNoMetrics(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.LogFormat != "text" || c.LogLevel != "info" || c.MetricsListen != "" {
		t.Fatalf("defaults: format %q level %q metrics %q", c.LogFormat, c.LogLevel, c.MetricsListen)
	}
}

func TestObservabilityFileThenEnv(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("log_format: json\nlog_level: debug\nmetrics_listen: 127.0.0.1:9090\n"), 0o600)
	c, err := Load(path, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.LogFormat != "json" || c.LogLevel != "debug" || c.MetricsListen != "127.0.0.1:9090" {
		t.Fatalf("file: %+v", c)
	}
	c, err = Load(path, env(map[string]string{"KB_LOG_FORMAT": "text", "KB_LOG_LEVEL": "warn", "KB_METRICS_LISTEN": ":9191"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.LogFormat != "text" || c.LogLevel != "warn" || c.MetricsListen != ":9191" {
		t.Fatalf("env over file: %+v", c)
	}
}

func TestObservabilityErrorsNameTheField(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"KB_LOG_FORMAT": "xml"}, []string{"log_format", `"xml"`, "text or json"}},
		{map[string]string{"KB_LOG_FORMAT": "JSON"}, []string{"log_format", `"JSON"`}},
		{map[string]string{"KB_LOG_LEVEL": "loud"}, []string{"log_level", `"loud"`, "debug, info, warn or error"}},
		{map[string]string{"KB_METRICS_LISTEN": "9090"}, []string{"metrics_listen", `"9090"`, "host:port"}},
		{map[string]string{"KB_METRICS_LISTEN": "localhost:metrics"}, []string{"metrics_listen", "port"}},
		{map[string]string{"KB_METRICS_LISTEN": "127.0.0.1:70000"}, []string{"metrics_listen", "port"}},
		{map[string]string{"KB_LISTEN": "127.0.0.1:8080", "KB_METRICS_LISTEN": "127.0.0.1:8080"}, []string{"metrics_listen", "separate"}},
	} {
		_, err := Load("", env(c.env))
		if err == nil {
			t.Errorf("%v: accepted", c.env)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not say %q", c.env, err, w)
			}
		}
	}
}
