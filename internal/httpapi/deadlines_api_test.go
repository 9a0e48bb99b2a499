package httpapi_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/httpapi"
)

var shortTimeouts = httpapi.Timeouts{ReadHeader: time.Second, Idle: 5 * time.Second, BodyIdle: 700 * time.Millisecond, Body: 1500 * time.Millisecond}

// closedWithin reads conn until the server closes it and returns how long
// that took and what it sent; it fails the test if the server holds on.
func closedWithin(t *testing.T, conn net.Conn, start time.Time, limit time.Duration) (time.Duration, string) {
	t.Helper()
	_ = conn.SetReadDeadline(start.Add(limit))
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("connection still open after %s (read %q): %v", limit, got, err)
	}
	return time.Since(start), string(got)
}

func TestSlowClientsAreCut(t *testing.T) {
	e := newEnvWith(t, "sqlite", httpapi.Deps{Timeouts: shortTimeouts})
	host := strings.TrimPrefix(e.URL, "http://")
	login := `{"username":"admin","password":"admin-password-1"}`
	cases := []struct {
		name  string
		send  func(conn net.Conn)
		limit time.Duration // the server must close by then
	}{
		{"headers never finished", func(c net.Conn) {
			fmt.Fprintf(c, "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
		}, 3 * time.Second},
		{"JSON body stops", func(c net.Conn) {
			fmt.Fprintf(c, "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(login), login[:10])
		}, 3 * time.Second},
		{"JSON body trickles", func(c net.Conn) {
			fmt.Fprintf(c, "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(login))
			for i := 0; i < len(login)-1; i++ { // a byte per 200 ms never passes the idle deadline
				if _, err := c.Write([]byte{login[i]}); err != nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
		}, 4 * time.Second},
		{"upload body stops", func(c net.Conn) {
			fmt.Fprintf(c, "POST /api/v1/resources/upload?uri=kb://me/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.txt\"\r\n\r\nabc", e.Admin)
		}, 3 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Many at once, as an attacker would open them.
			const n = 20
			conns := make([]net.Conn, n)
			start := time.Now()
			for i := range conns {
				c, err := net.Dial("tcp", host)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				conns[i] = c
				go tc.send(c)
			}
			// Meanwhile a normal client is served at once.
			t0 := time.Now()
			var me userJSON
			e.mustOK(e.do(http.MethodGet, "/api/v1/auth/me", e.Admin, nil), http.StatusOK, &me)
			if me.Username != "admin" || time.Since(t0) > time.Second {
				t.Fatalf("normal request during the attack: %+v after %s", me, time.Since(t0))
			}
			for _, c := range conns {
				took, got := closedWithin(t, c, start, tc.limit)
				if took < 500*time.Millisecond {
					t.Fatalf("closed after only %s (%q): not by a deadline", took, got)
				}
				if strings.Contains(got, "HTTP/1.1 20") {
					t.Fatalf("a cut-off request succeeded: %q", got)
				}
			}
		})
	}
}

// A 2 MB upload sent in 32 KB pieces every 40 ms takes ~2.6 s, far past the
// 0.7 s idle deadline and the 1.5 s cap on JSON bodies, yet never waits 0.7 s
// for bytes: it must succeed, byte-exact.
func TestSlowMovingUploadSucceeds(t *testing.T) {
	e := newEnvWith(t, "sqlite", httpapi.Deps{Timeouts: shortTimeouts, MaxUploadRequest: 8 << 20})
	// The per-file limit of the test stack is 1 MiB; two files of 1 MiB.
	data := bytes.Repeat([]byte("0123456789abcdef"), (1<<20)/16)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for _, name := range []string{"a.bin", "b.bin"} {
			p, _ := mw.CreateFormFile("file", name)
			for off := 0; off < len(data); off += 32 << 10 {
				if _, err := p.Write(data[off : off+32<<10]); err != nil {
					pw.CloseWithError(err)
					return
				}
				time.Sleep(40 * time.Millisecond)
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/resources/upload?uri=kb://me/", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+e.Admin)
	start := time.Now()
	r := e.send(req)
	took := time.Since(start)
	var out struct {
		Items []struct{ Size int64 } `json:"items"`
	}
	e.mustOK(r, http.StatusCreated, &out)
	if len(out.Items) != 2 || out.Items[0].Size != int64(len(data)) || took < 2*time.Second {
		t.Fatalf("items %+v after %s", out.Items, took)
	}
	if sha256.Sum256(e.raw(e.Admin, "kb://me/b.bin")) != sha256.Sum256(data) {
		t.Fatal("b.bin does not read back byte-exact")
	}
}

// An oversized part or request is answered 413 while the client is still
// sending, after the server read little more than the limit.
func TestOversizedUploadRefusedEarly(t *testing.T) {
	const limit = testUploadLimit // 1 MiB per file
	cases := []struct {
		name   string
		files  int   // parts, each of size bytes
		size   int64 // bytes per part
		code   string
		maxReq int64
	}{
		{"part past max_upload_bytes", 1, 64 * limit, "file_too_large", 0},
		{"request past max_upload_request_bytes", 64, limit, "upload_too_large", 3 * limit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnvWith(t, "sqlite", httpapi.Deps{MaxUploadRequest: tc.maxReq})
			e.bodyRead = new(atomic.Int64)
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// Chunked, so the request is judged by the bytes that arrive and not
			// by a Content-Length.
			fmt.Fprintf(conn, "POST /api/v1/resources/upload?uri=kb://me/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n", e.Admin)
			total := int64(tc.files) * tc.size
			var sent atomic.Int64
			var finished atomic.Bool
			go func() {
				defer finished.Store(true)
				chunk := bytes.Repeat([]byte("x"), 64<<10)
				for f := 0; f < tc.files; f++ {
					head := fmt.Sprintf("--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f%d.bin\"\r\n\r\n", f)
					if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(head), head); err != nil {
						return
					}
					for off := int64(0); off < tc.size; off += int64(len(chunk)) {
						if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
							return
						}
						sent.Add(int64(len(chunk)))
					}
					fmt.Fprintf(conn, "2\r\n\r\n\r\n")
				}
				fmt.Fprintf(conn, "6\r\n--B--\r\n\r\n0\r\n\r\n")
			}()
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			stillSending, sentThen := !finished.Load(), sent.Load()
			wantErr(t, resp{Status: res.StatusCode, Header: res.Header, Body: body}, http.StatusRequestEntityTooLarge, tc.code)
			bound := int64(limit + 1<<20) // the limit, one read buffer and the multipart framing
			if tc.maxReq > 0 {
				bound = tc.maxReq + 1<<20
			}
			if read := e.bodyRead.Load(); read > bound || !stillSending || sentThen >= total {
				t.Fatalf("server read %d of %d bytes (bound %d); client still sending: %v (%d sent)", read, total, bound, stillSending, sentThen)
			}
			if !res.Close {
				t.Fatalf("the connection is kept for the rest of the body: %v", res.Header)
			}
		})
	}
}
