package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/blob/s3/s3test"
)

// Two replicas as docker-compose.yml runs them: A serves the API only
// (no workers), B runs the workers; one PostgreSQL database and one S3
// bucket, each replica with its own data dir. A file uploaded through A
// is read (a page deep inside it), searched and compiled through B, and
// what B's worker wrote reads back through A.
func TestTwoReplicasShareDatabaseAndObjectStore(t *testing.T) {
	needBinary(t)
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN is not set: replicas need a shared PostgreSQL")
	}
	cfg := s3test.Start(t) // sets the AWS credentials the children inherit
	const password = "replica-admin-pw"
	shared := []string{"KB_ADMIN_PASSWORD=" + password, "KB_FAKE_LLM=1", "KB_DATABASE_DSN=" + freshDatabase(t),
		"KB_JWT_SECRET=" + strings.Repeat("r", 40), "KB_BLOB_STORE=s3", "KB_S3_ENDPOINT=" + cfg.Endpoint,
		"KB_S3_BUCKET=" + cfg.Bucket, "KB_S3_PREFIX=" + cfg.Prefix, "KB_S3_REGION=" + cfg.Region}
	a := startServer(t, t.TempDir(), append(shared, "KB_WORKERS=0")...)
	a.waitLine(signInLine)
	b := startServer(t, t.TempDir(), append(shared, "KB_WORKERS=1")...)
	b.waitLine(signInLine)
	tokA := a.mustLogin("admin", password)
	tokB := b.mustLogin("admin", password)

	if status, body := a.request("POST", "/api/v1/resources/folders", tokA, map[string]string{"uri": "kb://me/team/"}); status != http.StatusCreated {
		t.Fatalf("mkdir on A: %d %s", status, body)
	}
	// Past several index strides, with a line to find near the end.
	var sb strings.Builder
	for i := 0; sb.Len() < 30_000; i++ {
		fmt.Fprintf(&sb, "line %05d of the shared notes — é中\n", i)
	}
	sb.WriteString("the quarterly zebra figure is 42\n")
	content := sb.String()
	if status := a.upload(tokA, "kb://me/team/", "notes.md", []byte(content)); status != http.StatusCreated {
		t.Fatalf("upload on A: %d\n%s", status, a.logs())
	}
	const uri = "kb://me/team/notes.md"
	// The fake LLM echoes its prompt piece by piece, so the file compiled
	// is a short one (also uploaded through A).
	brief := "Decision: the zebra figure stays at 42.\n"
	if status := a.upload(tokA, "kb://me/team/", "brief.md", []byte(brief)); status != http.StatusCreated {
		t.Fatalf("upload on A: %d\n%s", status, a.logs())
	}

	runes := []rune(content)
	off := len(runes) - 2000
	var page struct {
		Text  string `json:"text"`
		Total int    `json:"total"`
	}
	status, body := b.request("GET", fmt.Sprintf("/api/v1/resources/content?uri=%s&offset=%d&limit=1000", url.QueryEscape(uri), off), tokB, nil)
	if status != 200 || json.Unmarshal(body, &page) != nil {
		t.Fatalf("read on B: %d %.300s", status, body)
	}
	if page.Total != len(runes) || page.Text != string(runes[off:off+1000]) {
		t.Fatalf("page on B: total %d (want %d), text %.80q", page.Total, len(runes), page.Text)
	}

	var found struct {
		Hits []struct {
			URI     string `json:"uri"`
			Snippet string `json:"snippet"`
		} `json:"hits"`
	}
	status, body = b.request("GET", "/api/v1/search?uri=kb://me/team/&kind=content&q=quarterly", tokB, nil)
	if status != 200 || json.Unmarshal(body, &found) != nil || len(found.Hits) != 1 ||
		!strings.HasSuffix(found.Hits[0].URI, "/team/notes.md") || !strings.Contains(found.Hits[0].Snippet, "«quarterly»") {
		t.Fatalf("search on B: %d %.500s", status, body)
	}

	var answer struct {
		Jobs []struct {
			ID int64 `json:"id"`
		} `json:"jobs"`
	}
	status, body = b.request("POST", "/api/v1/knowledge-agent/compile", tokB, map[string]any{"uris": []string{"kb://me/team/brief.md"}, "model_id": "fake"})
	if status != 200 || json.Unmarshal(body, &answer) != nil || len(answer.Jobs) != 1 {
		t.Fatalf("compile on B: %d %.500s", status, body)
	}
	var job struct {
		State string `json:"state"`
		Error any    `json:"error"`
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		status, body = b.request("GET", fmt.Sprintf("/api/v1/jobs/%d", answer.Jobs[0].ID), tokB, nil)
		if status != 200 || json.Unmarshal(body, &job) != nil {
			t.Fatalf("job on B: %d %s", status, body)
		}
		if job.State == "succeeded" || job.State == "failed" || job.State == "cancelled" || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if job.State != "succeeded" {
		t.Fatalf("compile job on B: %s\n%s\n%s", body, b.logs(), a.logs())
	}
	// What B's worker published (its bytes in the object store) reads
	// back through A.
	status, body = a.request("GET", "/api/v1/resources?uri="+url.QueryEscape("kb://me/wiki/team/"), tokA, nil)
	if status != 200 || !strings.Contains(string(body), "brief") {
		t.Fatalf("wiki listing on A: %d %.600s", status, body)
	}
	status, body = a.request("GET", "/api/v1/resources/content?uri="+url.QueryEscape("kb://me/wiki/team/brief.md"), tokA, nil)
	if status != 200 || json.Unmarshal(body, &page) != nil || !strings.Contains(page.Text, "zebra") {
		t.Fatalf("compiled page on A: %d %.600s", status, body)
	}

	// An archive imported through A (no workers) is unpacked by B's worker:
	// it was once staged on A's own disk, where B answered archive_gone.
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for _, name := range []string{"minutes/q1.md", "minutes/q2.md"} {
		w, _ := zw.Create(name)
		fmt.Fprintf(w, "# %s\nthe zebra figure again\n", name)
	}
	zw.Close()
	sent := a.multipart("/api/v1/resources/import?uri="+url.QueryEscape("kb://me/team/"), tokA, "archive.zip", zipped.Bytes())
	status, body = sent.status, sent.body
	var imp struct {
		Job struct {
			ID int64 `json:"id"`
		} `json:"job"`
	}
	if status != http.StatusAccepted || json.Unmarshal(body, &imp) != nil || imp.Job.ID == 0 {
		t.Fatalf("import on A: %d %s", status, body)
	}
	deadline = time.Now().Add(90 * time.Second)
	for {
		status, body = a.request("GET", fmt.Sprintf("/api/v1/jobs/%d", imp.Job.ID), tokA, nil)
		if status != 200 || json.Unmarshal(body, &job) != nil {
			t.Fatalf("import job on A: %d %s", status, body)
		}
		if job.State == "succeeded" || job.State == "failed" || job.State == "cancelled" || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if job.State != "succeeded" {
		t.Fatalf("import job: %s\n%s", body, b.logs())
	}
	status, body = a.request("GET", "/api/v1/resources?uri="+url.QueryEscape("kb://me/team/archive/minutes/"), tokA, nil)
	if status != 200 || !strings.Contains(string(body), "q1.md") || !strings.Contains(string(body), "q2.md") {
		t.Fatalf("imported folder on A: %d %.600s", status, body)
	}
}
