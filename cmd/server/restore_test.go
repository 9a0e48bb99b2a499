package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const restorePassword = "restore-admin-pw"

// TestRestoreIsAllOrNothing: a backup cut short (inside a blob, at an entry
// boundary, anywhere in the compressed stream) or holding a blob whose bytes
// were flipped is refused with the reason and the entry, and the target —
// an empty data directory, or one holding older data restored over with
// --replace — is byte for byte as it was; the server starts on the older
// one and reads its files. The intact backup then replaces it.
func TestRestoreIsAllOrNothing(t *testing.T) {
	needBinary(t)
	archive, newFiles := backupOf(t, "new", 40)
	tarBytes := gunzip(t, archive)
	members := tarMembers(t, tarBytes)
	var blobs []tarMember
	for _, m := range members {
		if strings.HasPrefix(m.name, "blobs/") {
			blobs = append(blobs, m)
		}
	}
	mid := blobs[len(blobs)/2]
	flipped := bytes.Clone(tarBytes)
	flipped[mid.data+mid.size/2] ^= 0x01

	cases := []struct {
		name    string
		archive []byte
		want    []string // in the refusal
	}{
		{"cut inside a blob", gzipOf(t, tarBytes[:mid.data+mid.size/2]), []string{"truncated", mid.name}},
		{"cut at an entry boundary", gzipOf(t, tarBytes[:mid.header]), []string{"missing", "blob"}},
		{"compressed stream cut in half", archive[:len(archive)/2], []string{"truncated"}},
		{"a blob's bits flipped", gzipOf(t, flipped), []string{"corrupt", mid.name}},
	}
	old := t.TempDir()
	oldFiles := populate(t, old, "old", 5)
	before := snapshot(t, old)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "bad.tar.gz")
			if err := os.WriteFile(bad, c.archive, 0o600); err != nil {
				t.Fatal(err)
			}
			empty := t.TempDir()
			out, err := runCLI(t, empty, nil, "restore", "--from", bad)
			if err == nil || !containsAll(out, c.want) {
				t.Errorf("restore into an empty dir: %v, want a refusal naming %q:\n%s", err, c.want, out)
			}
			if left := snapshot(t, empty); len(left) > 0 {
				t.Errorf("restore into an empty dir left %s", describe(left))
			}
			out, err = runCLI(t, old, nil, "restore", "--replace", "--from", bad)
			if err == nil || !containsAll(out, c.want) {
				t.Errorf("restore over older data: %v, want a refusal naming %q:\n%s", err, c.want, out)
			}
			t.Log(strings.TrimSpace(out))
			if after := snapshot(t, old); !sameFiles(before, after) {
				t.Errorf("restore over older data changed the data dir: before %s, after %s", describe(before), describe(after))
			}
		})
	}
	readsBack(t, old, "old", oldFiles)

	out, err := runCLI(t, old, nil, "restore", "--replace", "--from", archive2path(t, archive))
	if err != nil {
		t.Fatalf("restore of the intact backup over older data: %v\n%s", err, out)
	}
	if out, err := runCLI(t, old, nil, "fsck"); err != nil || !strings.Contains(out, " 0 missing, 0 corrupt, 0 orphaned") {
		t.Fatalf("fsck after the replacing restore: %v\n%s", err, out)
	}
	readsBack(t, old, "new", newFiles)
}

// TestRestoreIsAllOrNothingOnPostgres: a PostgreSQL archive cut inside a
// blob loads nothing: the dump runs only once the archive has been read
// whole, and then in one transaction.
func TestRestoreIsAllOrNothingOnPostgres(t *testing.T) {
	needBinary(t)
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN not set")
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Skip("pg_dump not installed (apt-get install -y postgresql-client)")
	}
	archive, _ := backupOf(t, "new", 10, "KB_DATABASE_DSN="+freshDatabase(t))
	tarBytes := gunzip(t, archive)
	var last tarMember
	for _, m := range tarMembers(t, tarBytes) {
		if strings.HasPrefix(m.name, "blobs/") {
			last = m
		}
	}
	dsn := freshDatabase(t)
	dir := t.TempDir()
	bad := archive2path(t, gzipOf(t, tarBytes[:last.data+last.size/2]))
	out, err := runCLI(t, dir, []string{"KB_DATABASE_DSN=" + dsn}, "restore", "--from", bad)
	if err == nil || !containsAll(out, []string{"truncated", last.name}) {
		t.Errorf("restore: %v, want a refusal naming %s:\n%s", err, last.name, out)
	}
	tables, err := exec.Command("psql", dsn, "-Atc", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").CombinedOutput()
	if err != nil || strings.TrimSpace(string(tables)) != "0" {
		t.Errorf("the database holds %s tables after the refused restore (%v)", strings.TrimSpace(string(tables)), err)
	}
	if left := snapshot(t, dir); len(left) > 0 {
		t.Errorf("the refused restore left %s", describe(left))
	}
}

// archive2path writes b to a temporary backup.tar.gz and returns its path.
func archive2path(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "backup.tar.gz")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// backupOf fills a fresh data dir with n files under kb://me/<folder>/ and
// returns its backup and the files.
func backupOf(t *testing.T, folder string, n int, env ...string) ([]byte, map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	files := populate(t, dir, folder, n, env...)
	p := filepath.Join(t.TempDir(), "backup.tar.gz")
	if out, err := runCLI(t, dir, env, "backup", "--out", p); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b, files
}

// populate starts a server on dir, uploads n files of incompressible text
// (so blobs, not the database, make most of a backup) and stops it.
func populate(t *testing.T, dir, folder string, n int, env ...string) map[string][]byte {
	t.Helper()
	s := startServer(t, dir, append([]string{"KB_ADMIN_PASSWORD=" + restorePassword}, env...)...)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", restorePassword)
	uri := "kb://me/" + folder + "/"
	if status, body := s.request("POST", "/api/v1/resources/folders", tok, map[string]string{"uri": uri}); status != http.StatusCreated {
		t.Fatalf("mkdir: %d %s", status, body)
	}
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		raw := make([]byte, 4<<10)
		rand.Read(raw)
		name := fmt.Sprintf("%s-%02d.txt", folder, i)
		files[name] = []byte(hex.EncodeToString(raw))
		if status := s.upload(tok, uri, name, files[name]); status != http.StatusCreated {
			t.Fatalf("upload %s: %d", name, status)
		}
	}
	s.stop()
	return files
}

// readsBack starts a server on dir and checks every file of folder answers
// with its bytes.
func readsBack(t *testing.T, dir, folder string, files map[string][]byte) {
	t.Helper()
	s := startServer(t, dir)
	s.waitLine(runningLine)
	tok := s.mustLogin("admin", restorePassword)
	for name, want := range files {
		status, got := s.request("GET", "/api/v1/resources/raw?uri="+url.QueryEscape("kb://me/"+folder+"/"+name), tok, nil)
		if status != http.StatusOK || !bytes.Equal(got, want) {
			t.Errorf("%s: %d, %d bytes, want %d", name, status, len(got), len(want))
		}
	}
	s.stop()
}

type tarMember struct {
	name         string
	header, data int // offsets in the uncompressed stream
	size         int
}

func tarMembers(t *testing.T, b []byte) []tarMember {
	t.Helper()
	r := bytes.NewReader(b)
	tr := tar.NewReader(r)
	var out []tarMember
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		// Every member here has a single 512-byte header.
		data := len(b) - r.Len()
		out = append(out, tarMember{name: h.Name, header: data - 512, data: data, size: int(h.Size)})
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gzipOf(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// snapshot maps each file below dir to the SHA-256 of its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// describe summarises a snapshot: the database, and blobs by count.
func describe(files map[string]string) string {
	blobs, other := 0, []string{}
	for p := range files {
		switch {
		case strings.HasPrefix(p, "blobs"+string(filepath.Separator)) && !strings.HasSuffix(p, ".idx"):
			blobs++
		case strings.HasSuffix(p, ".idx"):
		default:
			other = append(other, p)
		}
	}
	raw, _ := json.Marshal(other)
	return fmt.Sprintf("%s and %d blobs", raw, blobs)
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
