package dav_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// benchSize is one transferred file: large enough that throughput, not
// per-request work, is measured.
const benchSize = 4 << 20

// BenchmarkDAVTransfer compares WebDAV PUT and GET with the REST upload
// and raw download in one run on one server (goal: WebDAV ≥ 0.9× REST).
// Each PUT replaces the same file, so every one stores a new version, as
// a sync client's would.
func BenchmarkDAVTransfer(b *testing.B) {
	// The request log would drown the figures.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	e := newEnv(b, store.DialectSQLite)
	data := make([]byte, benchSize)
	_, _ = rand.Read(data)
	client := &http.Client{}
	send := func(b *testing.B, r *http.Request, want int) {
		res, err := client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			b.Fatalf("%s %s: %d", r.Method, r.URL.Path, res.StatusCode)
		}
		if r.Method == http.MethodGet && n != benchSize {
			b.Fatalf("GET read %d bytes", n)
		}
	}
	fresh := func() {
		// Every round writes new bytes, so no blob is shared with the last.
		data[0]++
	}
	putREST := func(b *testing.B) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "bench-rest.bin")
		_, _ = fw.Write(data)
		mw.Close()
		r, _ := http.NewRequest("POST", e.url+"/api/v1/resources/upload?uri=kb://me/&on_conflict=replace", &body)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		r.Header.Set("Authorization", "Bearer "+e.aliceKey)
		send(b, r, http.StatusCreated)
	}
	putDAV := func(b *testing.B) {
		r, _ := http.NewRequest("PUT", e.url+"/dav/bench-dav.bin", bytes.NewReader(data))
		r.SetBasicAuth("alice", e.aliceKey)
		send(b, r, http.StatusCreated)
	}
	// The files the GETs read, so each sub-benchmark runs alone too.
	putREST(b)
	putDAV(b)
	b.Run("put-rest", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			fresh()
			putREST(b)
		}
	})
	b.Run("put-dav", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			fresh()
			putDAV(b)
		}
	})
	b.Run("get-rest", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			r, _ := http.NewRequest("GET", e.url+"/api/v1/resources/raw?uri=kb://me/bench-rest.bin", nil)
			r.Header.Set("Authorization", "Bearer "+e.aliceKey)
			send(b, r, http.StatusOK)
		}
	})
	b.Run("get-dav", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			r, _ := http.NewRequest("GET", e.url+"/dav/bench-dav.bin", nil)
			r.SetBasicAuth("alice", e.aliceKey)
			send(b, r, http.StatusOK)
		}
	})
}

// BenchmarkDAVPropfind lists a 1,000-file folder with PROPFIND Depth 1
// against one REST page of the same 1,000 children: a folder costs a few
// queries, not a few per child.
func BenchmarkDAVPropfind(b *testing.B) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	e := newEnv(b, store.DialectSQLite)
	ctx := context.Background()
	if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/big/"); err != nil {
		b.Fatal(err)
	}
	for batch := range 4 {
		var files []knowledge.Staged
		for i := range 250 {
			s, err := e.tree.Stage(fmt.Sprintf("文件 %d-%03d.md", batch, i), strings.NewReader(fmt.Sprintf("note %d %d", batch, i)))
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, s)
		}
		if _, err := e.tree.CommitUpload(ctx, e.alice, "kb://me/big/", files, knowledge.ConflictFail); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("rest-list", func(b *testing.B) {
		for b.Loop() {
			r, _ := http.NewRequest("GET", e.url+"/api/v1/resources?uri=kb://me/big/&limit=1000", nil)
			r.Header.Set("Authorization", "Bearer "+e.aliceKey)
			res, err := http.DefaultClient.Do(r)
			if err != nil || res.StatusCode != 200 {
				b.Fatal(res.StatusCode, err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	})
	b.Run("dav-propfind", func(b *testing.B) {
		for b.Loop() {
			r, _ := http.NewRequest("PROPFIND", e.url+"/dav/big/", nil)
			r.Header.Set("Depth", "1")
			r.SetBasicAuth("alice", e.aliceKey)
			res, err := http.DefaultClient.Do(r)
			if err != nil || res.StatusCode != 207 {
				b.Fatal(res.StatusCode, err)
			}
			n, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if n < 1000*200 {
				b.Fatalf("multistatus of %d bytes", n)
			}
			b.ReportMetric(float64(n), "resp-bytes")
		}
	})
}
