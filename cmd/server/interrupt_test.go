package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestKilledMidTurnIsInterruptedAtNextStart: the server dies (SIGKILL, no
// chance to store anything) while an answer streams; the next start marks
// that answer failed with code interrupted, never leaving it streaming.
func TestKilledMidTurnIsInterruptedAtNextStart(t *testing.T) {
	needBinary(t)
	dataDir := t.TempDir()
	env := []string{"KB_ADMIN_PASSWORD=configured-admin-pw", "KB_FAKE_LLM=1", "KB_WORKERS=0"}
	s := startServer(t, dataDir, env...)
	s.waitLine(signInLine)
	token := s.mustLogin("admin", "configured-admin-pw")

	body, _ := json.Marshal(map[string]any{"uri": "kb://me/", "model_id": "fake", "message": "hold on [[hang]] please"})
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/api/v1/knowledge-agent/stream", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var convID float64
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "data: ") && convID == 0 {
			var start map[string]any
			json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &start)
			convID, _ = start["conversation_id"].(float64)
		}
		if line == "event: delta" {
			break
		}
	}
	if convID == 0 {
		t.Fatalf("no conversation_id before the first delta\n%s", s.logs())
	}
	path := fmt.Sprintf("/api/v1/knowledge-agent/conversations/%d", int64(convID))
	status, raw := s.request(http.MethodGet, path, token, nil)
	if status != 200 || !strings.Contains(string(raw), `"status":"streaming"`) {
		t.Fatalf("in flight: %d %s", status, raw)
	}
	s.cmd.Process.Kill()
	<-s.done

	s = startServer(t, dataDir, env...)
	s.waitLine(signInLine)
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, raw = s.request(http.MethodGet, path, token, nil)
		if status == 200 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	var c struct {
		Messages []struct {
			Role, Status string
			Error        *struct{ Code string }
		}
	}
	json.Unmarshal(raw, &c)
	if status != 200 || len(c.Messages) != 2 {
		t.Fatalf("after restart: %d %s", status, raw)
	}
	if a := c.Messages[1]; a.Role != "assistant" || a.Status != "failed" || a.Error == nil || a.Error.Code != "interrupted" {
		t.Fatalf("the cut turn after restart: %s", raw)
	}
	s.stop()
}
