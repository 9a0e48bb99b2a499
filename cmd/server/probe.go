package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/config"
)

// probeTimeout bounds one health check; a container runtime runs it often.
const probeTimeout = 5 * time.Second

// probeCommand asks the local server's /readyz (or the path given, e.g.
// /healthz) and fails unless it answers 200: container health checks need
// no curl in the image.
func probeCommand(configPath string, args []string) error {
	path := "/readyz"
	if len(args) > 0 {
		path = args[0]
	}
	if path != "/readyz" && path != "/healthz" {
		return fmt.Errorf("probe: %q is neither /readyz nor /healthz", path)
	}
	cfg, err := config.Load(configPath, os.Getenv)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(cfg.Listen)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	client := &http.Client{Timeout: probeTimeout}
	res, err := client.Get("http://" + net.JoinHostPort(host, port) + path)
	if err != nil {
		return fmt.Errorf("probe %s: %w", path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("probe %s: %d %s", path, res.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}
