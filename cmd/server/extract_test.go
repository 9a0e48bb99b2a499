package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// The real server, with no model configured, gives an uploaded PDF its
// text by itself: the extraction worker parses it in the extraction child
// and read answers the parsed text, with text_pending meanwhile.
func TestUploadedPDFIsReadWithoutCompile(t *testing.T) {
	needBinary(t)
	const password = "extract-admin-pw"
	s := startServer(t, t.TempDir(), "KB_ADMIN_PASSWORD="+password)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", password)
	pdf, err := os.ReadFile("../../internal/extract/testdata/pdf/pdftex-article.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if status := s.upload(tok, "kb://me/", "article.pdf", pdf); status != http.StatusCreated {
		t.Fatalf("upload: %d", status)
	}
	deadline := time.Now().Add(3 * time.Minute) // a cold start compiles the PDF engine
	for {
		status, body := s.request("GET", "/api/v1/resources/content?uri="+url.QueryEscape("kb://me/article.pdf"), tok, nil)
		var p struct {
			Body      string `json:"body"`
			Text      string `json:"text"`
			TextState string `json:"text_state"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &p) != nil {
			t.Fatalf("read: %d %s", status, body)
		}
		if p.Body == "l2" {
			if p.TextState != "" || !strings.Contains(strings.Join(strings.Fields(p.Text), " "), "Most notes are written once and never read again") {
				t.Fatalf("after extraction: %s", body)
			}
			break
		}
		if p.Body != "none" || p.TextState != "text_pending" {
			t.Fatalf("before extraction: %s", body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("not extracted in time: %s\n%s", body, s.logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
