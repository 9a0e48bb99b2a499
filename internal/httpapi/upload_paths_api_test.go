package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// A file name that carries folders is never flattened: without parents it
// is refused, with parents=true its folders are created below the target.
func TestUploadNamesCarryingPaths(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mkdir(bob, "kb://me/lib/")
		parents := []string{"parents", "true"}

		t.Run("refused without parents", func(t *testing.T) {
			before := e.snapshot(bob)
			for _, name := range []string{"lib/a/b.md", "../x.md", `win\dir\c.md`} {
				r := e.upload(bob, "kb://me/", upFile{"fine.md", []byte("ok")}, upFile{name, []byte("x")})
				wantErr(t, r, http.StatusBadRequest, "path_in_name")
				if _, msg, _ := r.APIError(); !strings.Contains(msg, "parents=true") {
					t.Errorf("%s: the message does not say how to keep the folders: %s", name, msg)
				}
			}
			sameSnapshot(t, "refused uploads", before, e.snapshot(bob))
		})

		t.Run("folders created with parents", func(t *testing.T) {
			var out struct {
				Items []itemJSON `json:"items"`
			}
			e.mustOK(e.uploadQuery(bob, "kb://me/lib/", parents,
				upFile{"a/b/deep.md", []byte("deep")}, upFile{"a/top.md", []byte("top")},
				upFile{`w\x.md`, []byte("win")}, upFile{"plain.md", []byte("plain")}), http.StatusCreated, &out)
			var uris []string
			for _, it := range out.Items {
				uris = append(uris, it.URI)
			}
			want := "kb://users/bob/lib/a/b/deep.md kb://users/bob/lib/a/top.md kb://users/bob/lib/w/x.md kb://users/bob/lib/plain.md"
			if strings.Join(uris, " ") != want {
				t.Fatalf("items %v", uris)
			}
			if got := strings.Join(e.names(bob, "kb://me/lib/a/"), ","); got != "b,top.md" {
				t.Fatalf("lib/a holds %s", got)
			}
			if string(e.raw(bob, "kb://me/lib/a/b/deep.md")) != "deep" || string(e.raw(bob, "kb://me/lib/w/x.md")) != "win" {
				t.Fatal("bytes differ below the created folders")
			}
			// Existing folders are reused; the conflict choice applies to
			// the files in them.
			wantErr(t, e.uploadQuery(bob, "kb://me/lib/", parents, upFile{"a/new.md", []byte("n")}, upFile{"a/top.md", []byte("again")}),
				http.StatusConflict, "already_exists")
			e.mustOK(e.uploadQuery(bob, "kb://me/lib/", append(parents, "on_conflict", "replace"), upFile{"a/top.md", []byte("again")}), http.StatusCreated, nil)
			if string(e.raw(bob, "kb://me/lib/a/top.md")) != "again" {
				t.Fatal("replace below an existing folder did not replace")
			}
		})

		t.Run("bad segments refused, nothing kept", func(t *testing.T) {
			before := e.snapshot(bob)
			for _, name := range []string{"../x.md", "a/../../x.md", "/abs.md", "a//b.md", "a/./b.md", "a/", "ok/\u202eevil.md"} {
				r := e.invalid().uploadQuery(bob, "kb://me/lib/", parents, upFile{"new/fine.md", []byte("ok")}, upFile{name, []byte("x")})
				wantErr(t, r, http.StatusBadRequest, "invalid_name")
				wantFile(t, r, name)
			}
			// A file where a folder is needed fails the whole upload.
			r := e.uploadQuery(bob, "kb://me/lib/", parents, upFile{"fresh/one.md", []byte("1")}, upFile{"plain.md/two.md", []byte("2")})
			wantErr(t, r, http.StatusConflict, "not_a_folder")
			wantFile(t, r, "plain.md/two.md")
			// Two spellings of one place are one file twice.
			r = e.uploadQuery(bob, "kb://me/lib/", parents, upFile{"d/same.md", []byte("1")}, upFile{`d\same.md`, []byte("2")})
			wantErr(t, r, http.StatusBadRequest, "duplicate_name")
			wantFile(t, r, "d/same.md")
			sameSnapshot(t, "refused uploads with parents", before, e.snapshot(bob))
		})

		t.Run("parents must be a boolean", func(t *testing.T) {
			r := e.invalid().uploadQuery(bob, "kb://me/", []string{"parents", "yes please"}, upFile{"a.md", []byte("a")})
			wantErr(t, r, http.StatusBadRequest, "invalid_parents")
		})
	})
}

// wantFile checks that a refused upload names the part at fault (error.file),
// so a client can set it aside and send the rest.
func wantFile(t *testing.T, r resp, name string) {
	t.Helper()
	var e struct {
		Error struct {
			File string `json:"file"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.File != name {
		t.Errorf("error.file = %q, want %q (%s)", e.Error.File, name, r)
	}
}
