package dav_test

import (
	"bytes"
	"crypto/rand"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"testing"

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
	fresh := func(b *testing.B) {
		// Every round writes new bytes, so no blob is shared with the last.
		data[0]++
	}
	b.Run("put-rest", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			fresh(b)
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
	})
	b.Run("put-dav", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			fresh(b)
			r, _ := http.NewRequest("PUT", e.url+"/dav/bench-dav.bin", bytes.NewReader(data))
			r.SetBasicAuth("alice", e.aliceKey)
			send(b, r, http.StatusCreated)
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
