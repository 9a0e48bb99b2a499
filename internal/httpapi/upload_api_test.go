package httpapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestUploads covers one and many files, versions, and uploads that must
// store nothing at all.
func TestUploads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")

		items := e.mustUpload(bob, "kb://me/notes/", upFile{"one.md", []byte("# one\n")})
		if len(items) != 1 || items[0].URI != "kb://users/bob/notes/one.md" || items[0].Kind != "file" || items[0].Size != 6 || items[0].Name != "one.md" {
			t.Fatalf("upload one: %+v", items)
		}
		items = e.mustUpload(bob, "kb://me/", upFile{"a.txt", []byte("A")}, upFile{"b.csv", []byte("x,y\n1,2\n")}, upFile{"图.md", []byte("中文")})
		if len(items) != 3 || items[2].URI != "kb://users/bob/图.md" {
			t.Fatalf("upload many: %+v", items)
		}
		if string(e.raw(bob, "kb://me/b.csv")) != "x,y\n1,2\n" || string(e.raw(bob, "kb://me/图.md")) != "中文" {
			t.Fatal("uploaded bytes differ")
		}
		// The limit itself is accepted.
		exact := bytes.Repeat([]byte("z"), testUploadLimit)
		e.mustUpload(bob, "kb://me/", upFile{"exact.txt", exact})
		if !bytes.Equal(e.raw(bob, "kb://me/exact.txt"), exact) {
			t.Fatal("file at the limit differs")
		}

		// Replacing an existing name makes a new version.
		e.mustUpload(bob, "kb://me/", upFile{"v.txt", []byte("version one")})
		var replaced struct {
			Items []itemJSON `json:"items"`
		}
		e.mustOK(e.uploadMode(bob, "kb://me/", "replace", upFile{"v.txt", []byte("version two, longer")}), http.StatusCreated, &replaced)
		items = replaced.Items
		if items[0].Size != int64(len("version two, longer")) {
			t.Fatalf("new version item %+v", items[0])
		}
		if got := string(e.raw(bob, "kb://me/v.txt")); got != "version two, longer" {
			t.Fatalf("raw after new version %q", got)
		}
		if p := e.page(bob, "kb://me/v.txt", 0, 100); p.Text != "version two, longer" {
			t.Fatalf("page after new version %q", p.Text)
		}
		n := 0
		for _, name := range e.names(bob, "kb://me/") {
			if name == "v.txt" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("v.txt listed %d times", n)
		}

		tmpBefore := e.stagingFiles()
		if len(tmpBefore) != 0 {
			t.Fatalf("staging not empty after good uploads: %v", tmpBefore)
		}
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		big := bytes.Repeat([]byte("y"), testUploadLimit+1)
		nothingStored := func(what string) {
			t.Helper()
			sameSnapshot(t, what, before, e.snapshot(bob))
			if left := e.stagingFiles(); len(left) != 0 {
				t.Fatalf("%s: staging holds %v", what, left)
			}
			if n := e.blobFiles(); n != blobsBefore {
				t.Fatalf("%s: %d blob files, was %d", what, n, blobsBefore)
			}
		}

		wantErr(t, e.upload(bob, "kb://me/", upFile{"big.txt", big}), 413, "file_too_large")
		nothingStored("over the limit")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"ok1.txt", []byte("fine")}, upFile{"ok2.txt", []byte("fine too")}, upFile{"big.txt", big}), 413, "file_too_large")
		nothingStored("good files before one over the limit")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"dup.txt", []byte("1")}, upFile{"other.txt", []byte("2")}, upFile{"dup.txt", []byte("3")}), 400, "duplicate_name")
		nothingStored("duplicate names")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"caf\u00e9.txt", []byte("1")}, upFile{"cafe\u0301.txt", []byte("2")}), 400, "duplicate_name")
		nothingStored("duplicate names after NFC")
		// (The blob files this case leaves behind are TestFailedCommitLeavesNoBlobs.)
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"notes", []byte("2")}), 409, "already_exists")
		sameSnapshot(t, "a file named like an existing folder", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("a file named like an existing folder: staging holds %v", left)
		}
		blobsBefore = e.blobFiles()
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"..", []byte("2")}), 400, "invalid_name")
		nothingStored("a part named ..")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"bad\x01name.txt", []byte("2")}), 400, "invalid_name")
		nothingStored("a part name with a control character")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{strings.Repeat("n", 256), []byte("2")}), 400, "invalid_name")
		nothingStored("a 256-byte part name")
		wantErr(t, e.upload(bob, "kb://me/Welcome.md", upFile{"x.txt", []byte("1")}), 400, "not_a_folder")
		nothingStored("a file as target")
		wantErr(t, e.upload(bob, "kb://me/nope/", upFile{"x.txt", []byte("1")}), 404, "not_found")
		nothingStored("a missing folder as target")
		wantErr(t, e.invalid().upload(bob, "kb://me/"), 400, "no_files")
		nothingStored("no parts")
		wantErr(t, e.invalid().do("POST", q("/api/v1/resources/upload", "kb://me/"), bob, `{"file":"x"}`), 400, "invalid_upload")
		nothingStored("not multipart")

		var many []upFile
		for i := 0; i <= 256; i++ {
			many = append(many, upFile{fmt.Sprintf("m%03d.txt", i), []byte("m")})
		}
		wantErr(t, e.upload(bob, "kb://me/", many...), 400, "too_many_files")
		nothingStored("more than 256 files")

		// A name is stored NFC and found under either normalization.
		items = e.mustUpload(bob, "kb://me/", upFile{"nai\u0308ve.txt", []byte("naive")})
		if items[0].Name != "na\u00efve.txt" {
			t.Fatalf("stored name %q is not NFC", items[0].Name)
		}
		for _, u := range []string{"kb://me/na\u00efve.txt", "kb://me/nai\u0308ve.txt"} {
			if string(e.raw(bob, u)) != "naive" {
				t.Fatalf("%s not found", u)
			}
		}
		// A part's file name that carries folders is refused without
		// parents=true: it was once silently flattened into the folder.
		for _, name := range []string{"../../escape.txt", "sub/dir/escape2.txt", "/abs/escape3.txt", `win\escape4.txt`} {
			wantErr(t, e.upload(bob, "kb://me/notes/", upFile{name, []byte("escape")}), 400, "path_in_name")
		}
		for _, name := range e.names(bob, "kb://me/") {
			if strings.HasPrefix(name, "escape") {
				t.Fatalf("a part escaped its folder: %s", name)
			}
		}
		before = e.snapshot(bob)
		blobsBefore = e.blobFiles()

		// A part that is not named "file" is ignored.
		body, ct := multipartBody(t, upFile{"kept.txt", []byte("kept")})
		body = append([]byte("--"+strings.TrimPrefix(ct, "multipart/form-data; boundary=")+"\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"), body...)
		req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+bob)
		var out struct {
			Items []itemJSON `json:"items"`
		}
		e.mustOK(e.send(req), 201, &out)
		if len(out.Items) != 1 || out.Items[0].Name != "kept.txt" {
			t.Fatalf("upload with an extra field: %+v", out.Items)
		}

		// Far over the limit: the server stops reading; whatever the
		// transport makes of that, nothing is stored.
		before = e.snapshot(bob)
		blobsBefore = e.blobFiles()
		served := e.served.Load()
		huge, hct := multipartBody(t, upFile{"huge.txt", bytes.Repeat([]byte("h"), 4*testUploadLimit)})
		req, _ = http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(huge))
		req.Header.Set("Content-Type", hct)
		req.Header.Set("Authorization", "Bearer "+bob)
		if res, err := e.client.Do(req); err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			wantErr(t, resp{Status: res.StatusCode, Header: res.Header, Body: b}, 413, "file_too_large")
		} else {
			t.Logf("4x limit upload: transport error (allowed): %v", err)
		}
		e.waitServed(served + 1)
		nothingStored("4x over the limit")
	})
}

// TestFailedCommitLeavesNoBlobs: an upload refused while committing (a part
// named like an existing folder) must not leave blob files nothing refers to.
func TestFailedCommitLeavesNoBlobs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("unique one")}, upFile{"notes", []byte("unique two")}), 409, "already_exists")
		sameSnapshot(t, "bob's tree", before, e.snapshot(bob))
		if n := e.blobFiles(); n != blobsBefore {
			t.Fatalf("%d blob files after a refused upload, was %d", n, blobsBefore)
		}
	})
}

// TestConcurrentWrites: parallel uploads of one name and parallel mkdirs of
// one path never answer 500 and leave exactly one node.
func TestConcurrentWrites(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		const n = 8
		statuses := make(chan string, 2*n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(2)
			go func() {
				defer wg.Done()
				body, ct := multipartBody(t, upFile{"race.txt", []byte(fmt.Sprintf("writer %d", i))})
				req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
				req.Header.Set("Content-Type", ct)
				req.Header.Set("Authorization", "Bearer "+bob)
				res, err := e.client.Do(req)
				if err != nil {
					statuses <- "upload: " + err.Error()
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				statuses <- fmt.Sprintf("upload %d %s", res.StatusCode, b)
			}()
			go func() {
				defer wg.Done()
				b, _ := json.Marshal(map[string]string{"uri": "kb://me/race/a/b/"})
				req, _ := http.NewRequest("POST", e.URL+"/api/v1/resources/folders", bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+bob)
				res, err := e.client.Do(req)
				if err != nil {
					statuses <- "mkdir: " + err.Error()
					return
				}
				b, _ = io.ReadAll(res.Body)
				res.Body.Close()
				statuses <- fmt.Sprintf("mkdir %d %s", res.StatusCode, b)
			}()
		}
		wg.Wait()
		close(statuses)
		created := map[string]int{}
		for s := range statuses {
			kind, rest, _ := strings.Cut(s, " ")
			switch {
			case strings.HasPrefix(rest, "201 "):
				created[kind]++
			case strings.HasPrefix(rest, "409 ") && (strings.Contains(rest, "already_exists") || strings.Contains(rest, `"exists"`)):
			default:
				t.Errorf("concurrent %s", s)
			}
		}
		if created["mkdir"] != 1 || created["upload"] < 1 {
			t.Errorf("created %v: want one folder and at least one upload", created)
		}
		count := 0
		for _, name := range e.names(bob, "kb://me/") {
			if name == "race.txt" {
				count++
			}
		}
		if count != 1 || len(e.names(bob, "kb://me/race/a/")) != 1 {
			t.Fatalf("race.txt listed %d times; race/a holds %v", count, e.names(bob, "kb://me/race/a/"))
		}
		if got := string(e.raw(bob, "kb://me/race.txt")); !strings.HasPrefix(got, "writer ") {
			t.Fatalf("race.txt holds %q", got)
		}
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("staging holds %v", left)
		}
	})
}

// TestKilledUpload cuts uploads off mid-part: no node, no staged file, no blob.
func TestKilledUpload(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		const boundary = "XBOUNDARYX"
		part := func(name string, data []byte) []byte {
			return append([]byte("--"+boundary+"\r\nContent-Disposition: form-data; name=\"file\"; filename=\""+name+"\"\r\nContent-Type: text/plain\r\n\r\n"), data...)
		}
		chunk := bytes.Repeat([]byte("k"), 600<<10) // more than one staging write

		cuts := []struct {
			name string
			body []byte
		}{
			{"cut inside the only part", part("cut.txt", chunk)},
			{"cut inside the part headers", []byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filen")},
			{"cut inside the second part", append(append(part("first.txt", []byte("complete first file")), []byte("\r\n")...), part("second.txt", chunk)...)},
			{"cut right before the closing boundary", append(part("almost.txt", []byte("all bytes but the end")), []byte("\r\n")...)},
		}
		for _, c := range cuts {
			served := e.served.Load()
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n",
				q("/api/v1/resources/upload", "kb://me/"), bob, boundary, len(c.body)+(10<<20))
			if _, err := conn.Write(c.body); err != nil {
				t.Fatalf("%s: write: %v", c.name, err)
			}
			time.Sleep(20 * time.Millisecond) // let the server start on the part
			conn.Close()
			e.waitServed(served + 1)
			sameSnapshot(t, c.name, before, e.snapshot(bob))
			if left := e.stagingFiles(); len(left) != 0 {
				t.Fatalf("%s: staging holds %v", c.name, left)
			}
			if n := e.blobFiles(); n != blobsBefore {
				t.Fatalf("%s: %d blob files, was %d", c.name, n, blobsBefore)
			}
		}

		// A client whose body reader fails mid-way (chunked transfer).
		pr, pw := io.Pipe()
		go func() {
			pw.Write(part("piped.txt", chunk))
			pw.CloseWithError(errors.New("client died"))
		}()
		served := e.served.Load()
		req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), pr)
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		req.Header.Set("Authorization", "Bearer "+bob)
		if res, err := e.client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode < 400 {
				t.Fatalf("broken body answered %d", res.StatusCode)
			}
		}
		e.waitServed(served + 1)
		sameSnapshot(t, "broken pipe", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("broken pipe: staging holds %v", left)
		}

		// A complete but malformed body (no closing boundary, cleanly sent)
		// is a 400 and stores nothing.
		body := part("nofinal.txt", []byte("data"))
		req, _ = http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		req.Header.Set("Authorization", "Bearer "+bob)
		r := e.invalid().send(req)
		if r.Status != 400 {
			t.Fatalf("unterminated multipart: %s", r)
		}
		sameSnapshot(t, "unterminated multipart", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("unterminated multipart: staging holds %v", left)
		}
	})
}
