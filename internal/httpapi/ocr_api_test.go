package httpapi

import (
	"encoding/json"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// A phrase that exists only as pixels of a scanned page is found by search
// once the page is compiled, and reading it says the text is OCR.
func TestOCRScannedPageIsSearchedAndRead(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("OCR test needs Tesseract: apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim")
	}
	scan, err := extracttest.RenderText("Memo from the harbour office.\nThe quartermaster keeps the zephyrine ledger in vault nine.", 300)
	if err != nil {
		t.Skip(err)
	}
	png := string(scan.PNG())
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		e.upload("alice", "kb://me/scans/", map[string]string{"memo.png": png})
		pool := e.svc.Start(1)
		defer pool.Stop(t.Context())

		code, b := e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{"uris": []string{"kb://me/scans/memo.png"}, "model_id": "fake"})
		enq := cmpDecode[cmpEnqueue](t, b)
		if code != 200 || len(enq.Jobs) != 1 {
			t.Fatalf("compile %d %s", code, b)
		}
		job, res := e.waitJob(enq.Jobs[0].ID, 90*time.Second)
		if job.State != "succeeded" {
			t.Fatalf("job %+v %v", job, res)
		}

		code, b = e.do("POST", "/knowledge-agent/command", "alice", map[string]any{"command": "search", "uri": "kb://me/scans/", "query": "zephyrine ledger"})
		found := cmpDecode[tools.SearchResult](t, b)
		if code != 200 || len(found.Hits) != 1 || found.Hits[0].URI != "kb://users/alice/scans/memo.png" {
			t.Fatalf("search %d %s", code, b)
		}

		code, b = e.do("GET", "/resources/content?uri=kb://me/scans/memo.png", "alice", nil)
		page := cmpDecode[knowledge.Page](t, b)
		if code != 200 || page.Body != "l2" || page.Source != "ocr" || page.OCRConfidence == nil || *page.OCRConfidence < 80 ||
			!strings.Contains(page.Text, "zephyrine ledger") || !strings.Contains(string(page.Extraction), "tesseract 5") {
			t.Fatalf("content %d %s", code, b)
		}
		code, b = e.do("POST", "/knowledge-agent/command", "alice", map[string]any{"command": "read", "uri": "kb://me/scans/memo.png"})
		read := cmpDecode[tools.ReadResult](t, b)
		if code != 200 || read.Source != "ocr" || read.OCRConfidence == nil || !strings.Contains(read.Text, "vault nine") {
			t.Fatalf("read %d %s", code, b)
		}

		// The tree marks the OCR-derived body.
		code, b = e.do("GET", "/resources?uri=kb://me/scans/", "alice", nil)
		listing := cmpDecode[knowledge.Listing](t, b)
		if code != 200 || len(listing.Items) != 1 || !listing.Items[0].OCR {
			t.Fatalf("listing %d %s", code, b)
		}

		// The summary's provenance names the OCR engine and pages.
		uri, _ := res["summary_uri"].(string)
		code, b = e.do("GET", "/resources/content?uri="+uri, "alice", nil)
		summary := cmpDecode[knowledge.Page](t, b)
		if code != 200 || !strings.Contains(summary.Text, "source: ocr") || !strings.Contains(summary.Text, `ocr_engine: "tesseract 5`) ||
			!strings.Contains(summary.Text, "ocr_languages: [eng, chi_sim]") || !strings.Contains(summary.Text, "ocr_pages: [1]") {
			t.Fatalf("summary %s: %d %s", uri, code, b)
		}
	})
}

// /readyz says to an administrator whether OCR can run and with which
// languages.
func TestReadyReportsOCR(t *testing.T) {
	e := obsSetup(t, "sqlite", 0)
	req, _ := http.NewRequest("GET", e.srv.URL+"/readyz", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokens[e.signInAdmin()])
	resp, err := CheckedClient(t).Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("readyz %v %v", resp, err)
	}
	defer resp.Body.Close()
	var body struct {
		OCR struct {
			Available bool
			Engine    string
			Languages []string
			Hint      string
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		if body.OCR.Available || !strings.Contains(body.OCR.Hint, "apt-get install") {
			t.Fatalf("without tesseract: %+v", body.OCR)
		}
		return
	}
	if !body.OCR.Available || !strings.HasPrefix(body.OCR.Engine, "tesseract") || len(body.OCR.Languages) == 0 {
		t.Fatalf("ocr %+v", body.OCR)
	}
}
