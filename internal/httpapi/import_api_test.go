package httpapi

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/importer"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// impNewEnv is a server whose compile workers also run imports.
func impNewEnv(t *testing.T, dialect string, lim importer.Limits) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	imp := &importer.Service{Store: stack.Store, Tree: stack.Tree, Limits: lim, MaxUpload: apptest.UploadLimit}
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Poll: 20 * time.Millisecond,
		Heartbeat: 50 * time.Millisecond, Runners: map[string]compile.Runner{importer.Kind: imp}})
	imp.Notify = comp.Notify
	pool := comp.Start(1)
	t.Cleanup(func() { pool.Stop(t.Context()) })
	return newAPIEnv(t, stack, Deps{Compile: comp, Import: imp}, "alice")
}

type zipFile struct {
	name, body string
	gbk        bool
	mode       os.FileMode
}

func buildZip(t testing.TB, files []zipFile) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		name := f.name
		if f.gbk {
			name, _ = simplifiedchinese.GBK.NewEncoder().String(name)
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, NonUTF8: f.gbk}
		if f.mode != 0 {
			h.SetMode(f.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func buildTarGz(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Size: int64(len(body)), Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// importArchive posts an archive and returns the status and the job.
func (e *apiEnv) importArchive(query, filename string, archive []byte) (int, cmpJob, []byte) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", filename)
	w.Write(archive)
	mw.Close()
	req := e.request(e.t, context.Background(), "POST", "/api/v1/resources/import?"+query, "alice", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp := e.send(e.t, req)
	defer resp.Body.Close()
	var out struct{ Job cmpJob }
	b := new(bytes.Buffer)
	b.ReadFrom(resp.Body)
	json.Unmarshal(b.Bytes(), &out)
	return resp.StatusCode, out.Job, b.Bytes()
}

// waitJob polls until the job ends.
func (e *apiEnv) waitJob(id int64, within time.Duration) (cmpJob, map[string]any) {
	e.t.Helper()
	deadline := time.Now().Add(within)
	for {
		_, b := e.do("GET", fmt.Sprintf("/jobs/%d", id), "alice", nil)
		var j struct {
			cmpJob
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal(b, &j); err != nil {
			e.t.Fatalf("job %s", b)
		}
		if j.State == "succeeded" || j.State == "failed" || j.State == "cancelled" {
			return j.cmpJob, j.Result
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %d still %s after %s", id, j.State, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *apiEnv) list(uri string) (int, []string) {
	e.t.Helper()
	code, b := e.do("GET", "/resources?uri="+url.QueryEscape(uri), "alice", nil)
	var l struct{ Items []struct{ Name string } }
	json.Unmarshal(b, &l)
	var names []string
	for _, it := range l.Items {
		names = append(names, it.Name)
	}
	return code, names
}

func TestImportAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := impNewEnv(t, dialect, importer.Limits{})
		t.Run("nested zip with GBK names", func(t *testing.T) {
			z := buildZip(t, []zipFile{
				{name: "a/b/c/deep.md", body: "# deep note about walruses"},
				{name: "报告/季度总结.txt", body: "quarterly", gbk: true},
				{name: "empty/", mode: os.ModeDir | 0o755},
				{name: "top.txt", body: "top"},
			})
			code, j, b := e.importArchive("uri=kb://me/", "Project X.zip", z)
			if code != 202 || j.Kind != "import" || j.URI != "kb://users/alice/Project X/" {
				t.Fatalf("%d %s", code, b)
			}
			done, res := e.waitJob(j.ID, 30*time.Second)
			if done.State != "succeeded" {
				t.Fatalf("job %+v", done)
			}
			// a, a/b, a/b/c and 报告 exist only in the files' paths.
			if res["files"].(float64) != 3 || res["folders"].(float64) != 5 || res["folder_uri"] != "kb://users/alice/Project X/" {
				t.Errorf("result %v, want 3 files in 5 folders", res)
			}
			if _, names := e.list("kb://me/Project X/"); strings.Join(names, ",") != "a,empty,报告,top.txt" {
				t.Errorf("listing %q", names)
			}
			if _, names := e.list("kb://me/Project X/报告/"); len(names) != 1 || names[0] != "季度总结.txt" {
				t.Errorf("GBK names %q", names)
			}
			_, b = e.do("GET", "/search?q=walruses&uri="+url.QueryEscape("kb://me/Project X/"), "alice", nil)
			if !strings.Contains(string(b), "deep.md") {
				t.Errorf("search %s", b)
			}
		})
		t.Run("nested tar.gz into an existing folder", func(t *testing.T) {
			e.do("POST", "/resources/folders", "alice", map[string]string{"uri": "kb://me/dest/"})
			tg := buildTarGz(t, map[string]string{"x/y/z.txt": "zzz", "readme.md": "hi"})
			code, j, b := e.importArchive("into=kb://me/dest/", "bundle.tgz", tg)
			if code != 202 || j.URI != "kb://users/alice/dest/" {
				t.Fatalf("%d %s", code, b)
			}
			if done, _ := e.waitJob(j.ID, 30*time.Second); done.State != "succeeded" {
				t.Fatalf("job %+v", done)
			}
			if _, names := e.list("kb://me/dest/x/y/"); len(names) != 1 || names[0] != "z.txt" {
				t.Errorf("listing %q", names)
			}
		})
		many := make([]zipFile, 20001)
		for i := range many {
			many[i] = zipFile{name: fmt.Sprintf("f%05d.txt", i), body: "x"}
		}
		for _, tc := range []struct {
			name, code string
			archive    []byte
			file       string
		}{
			{"traversal", "archive_unsafe_path", buildZip(t, []zipFile{{name: "ok.txt", body: "ok"}, {name: "../../escape.txt", body: "x"}}), "trav.zip"},
			{"symlink", "archive_link", buildZip(t, []zipFile{{name: "ok.txt", body: "ok"}, {name: "link", body: "/etc/passwd", mode: os.ModeSymlink | 0o777}}), "sym.zip"},
			{"bomb", "archive_bomb", buildZip(t, []zipFile{{name: "zeros.bin", body: strings.Repeat("\x00", 20<<20)}}), "bomb.zip"},
			{"too many entries", "archive_too_many_entries", buildZip(t, many), "many.zip"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, j, b := e.importArchive("uri=kb://me/", tc.file, tc.archive)
				if code != 202 {
					t.Fatalf("%d %s", code, b)
				}
				done, _ := e.waitJob(j.ID, 60*time.Second)
				if done.State != "failed" || done.Error == nil || done.Error.Code != tc.code {
					t.Fatalf("job %+v, want failed %s", done, tc.code)
				}
				folder := strings.TrimSuffix(strings.TrimSuffix(tc.file, ".zip"), ".tar.gz")
				if code, _ := e.list("kb://me/" + folder + "/"); code != 404 {
					t.Errorf("folder %s left behind: %d", folder, code)
				}
			})
		}
		t.Run("a badly named entry is skipped with its reason, the rest goes in", func(t *testing.T) {
			z := buildZip(t, []zipFile{{name: "good.md", body: "good"}, {name: "bad\u202etxt.exe", body: "x"},
				{name: "dir\u202e/inner.md", body: "x"}, {name: "sub/ok.md", body: "ok"}})
			_, j, b := e.importArchive("uri=kb://me/", "names.zip", z)
			done, res := e.waitJob(j.ID, 30*time.Second)
			if done.State != "succeeded" || res["files"].(float64) != 2 {
				t.Fatalf("job %+v %v (%s)", done, res, b)
			}
			skipped, _ := json.Marshal(res["skipped"])
			if !strings.Contains(string(skipped), "\"name\":\"bad\u202etxt.exe\"") || !strings.Contains(string(skipped), "\"name\":\"dir\u202e/inner.md\"") || !strings.Contains(string(skipped), "direction-changing") {
				t.Errorf("skipped %s", skipped)
			}
			if _, names := e.list("kb://me/names/"); strings.Join(names, ",") != "sub,good.md" {
				t.Errorf("listing %q", names)
			}
		})
		t.Run("bad requests", func(t *testing.T) {
			code, _, b := e.importArchive("uri=kb://me/", "notes.md", []byte("x"))
			if code != 400 || cmpErrCode(t, b) != "not_an_archive" {
				t.Errorf("%d %s", code, b)
			}
			code, _, b = e.importArchive("uri=kb://me/nowhere/", "a.zip", buildZip(t, nil))
			if code != 404 {
				t.Errorf("%d %s", code, b)
			}
			z := buildZip(t, []zipFile{{name: "a.txt", body: "a"}})
			_, j, _ := e.importArchive("uri=kb://me/", "twice.zip", z)
			e.waitJob(j.ID, 30*time.Second)
			_, j, _ = e.importArchive("uri=kb://me/", "twice.zip", z)
			if done, _ := e.waitJob(j.ID, 30*time.Second); done.State != "failed" || done.Error.Code != "already_exists" {
				t.Errorf("second import %+v", done)
			}
		})
	})
}

func TestImportQueueCap(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		stack := apptest.NewStack(t, dialect)
		// No workers: queued jobs stay queued.
		imp := &importer.Service{Store: stack.Store, Tree: stack.Tree, MaxUpload: apptest.UploadLimit, QueuedJobsPerUser: 2}
		comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Runners: map[string]compile.Runner{importer.Kind: imp}})
		e := newAPIEnv(t, stack, Deps{Compile: comp, Import: imp}, "alice")
		z := buildZip(t, []zipFile{{name: "a.txt", body: "a"}})
		for i := 0; i < 2; i++ {
			if code, _, b := e.importArchive("uri=kb://me/", fmt.Sprintf("q%d.zip", i), z); code != 202 {
				t.Fatalf("%d %s", code, b)
			}
		}
		code, _, b := e.importArchive("uri=kb://me/", "q2.zip", z)
		if code != http.StatusTooManyRequests || cmpErrCode(t, b) != "queue_full" || !strings.Contains(string(b), "2 queued jobs") {
			t.Fatalf("third import: %d %s", code, b)
		}
	})
}

func smallFilesZip(t testing.TB, n int) []byte {
	files := make([]zipFile, n)
	for i := range files {
		files[i] = zipFile{name: fmt.Sprintf("d%02d/note-%05d.md", i%50, i), body: fmt.Sprintf("note %d mentions token%05d", i, i)}
	}
	return buildZip(t, files)
}

func TestImportAPICancelAndLarge(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := impNewEnv(t, dialect, importer.Limits{})
		z := smallFilesZip(t, 5000)
		t.Run("cancel mid-import leaves no folder", func(t *testing.T) {
			_, j, b := e.importArchive("uri=kb://me/", "cancelled.zip", z)
			if j.ID == 0 {
				t.Fatal(string(b))
			}
			for {
				_, b := e.do("GET", fmt.Sprintf("/jobs/%d", j.ID), "alice", nil)
				cur := cmpDecode[cmpJob](t, b)
				if cur.State == "running" && cur.Stage == "unpack" {
					break
				}
				if cur.State != "queued" && cur.State != "running" {
					t.Fatalf("job ended before the cancel: %+v", cur)
				}
				time.Sleep(5 * time.Millisecond)
			}
			if code, b := e.do("POST", fmt.Sprintf("/jobs/%d/cancel", j.ID), "alice", nil); code != 200 {
				t.Fatalf("cancel %d %s", code, b)
			}
			if done, _ := e.waitJob(j.ID, 60*time.Second); done.State != "cancelled" {
				t.Fatalf("job %+v", done)
			}
			if code, _ := e.list("kb://me/cancelled/"); code != 404 {
				t.Errorf("cancelled import left a folder: %d", code)
			}
		})
		t.Run("5000 small files finish and are searchable", func(t *testing.T) {
			start := time.Now()
			_, j, _ := e.importArchive("uri=kb://me/", "big.zip", z)
			done, res := e.waitJob(j.ID, 5*time.Minute)
			if done.State != "succeeded" || res["files"].(float64) != 5000 {
				t.Fatalf("job %+v %v", done, res)
			}
			t.Logf("%s: 5000 files in %s", dialect, time.Since(start))
			_, b := e.do("GET", "/search?q=token04321&uri=kb://me/big/", "alice", nil)
			if !strings.Contains(string(b), "note-04321.md") {
				t.Errorf("search %s", b)
			}
		})
	})
}
