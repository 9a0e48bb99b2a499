package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

type versionJSON struct {
	ID      int64  `json:"id"`
	Version int    `json:"version"`
	Size    int64  `json:"size"`
	By      string `json:"by"`
	Current bool   `json:"current"`
}

type trashJSON struct {
	ID        int64  `json:"id"`
	URI       string `json:"uri"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	DeletedBy string `json:"deleted_by"`
}

func (e *env) trash(token string) []trashJSON {
	e.t.Helper()
	var out struct {
		Items []trashJSON `json:"items"`
	}
	e.mustOK(e.do(http.MethodGet, "/api/v1/trash", token, nil), http.StatusOK, &out)
	return out.Items
}

func (e *env) versions(token, uri string) []versionJSON {
	e.t.Helper()
	var out struct {
		Items []versionJSON `json:"items"`
	}
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources/versions", uri), token, nil), http.StatusOK, &out)
	return out.Items
}

func TestUploadConflictModes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mustUpload(bob, "kb://me/", upFile{"r.md", []byte("one")})

		// fail (the default): 409 exists with the existing node; nothing changes.
		for _, mode := range []string{"", "fail"} {
			r := e.uploadMode(bob, "kb://me/", mode, upFile{"r.md", []byte("two")}, upFile{"new.md", []byte("n")})
			wantErr(t, r, http.StatusConflict, "already_exists")
			var body struct {
				Error struct {
					Existing itemJSON `json:"existing"`
				} `json:"error"`
			}
			r.Decode(t, &body)
			if body.Error.Existing.URI != "kb://users/bob/r.md" || body.Error.Existing.Size != 3 {
				t.Fatalf("existing node %+v", body.Error.Existing)
			}
		}
		if got := string(e.raw(bob, "kb://me/r.md")); got != "one" {
			t.Fatalf("a refused upload changed the file: %q", got)
		}
		for _, n := range e.names(bob, "kb://me/") {
			if n == "new.md" {
				t.Fatal("a refused upload stored its other file")
			}
		}
		wantErr(t, e.invalid().uploadMode(bob, "kb://me/", "merge", upFile{"r.md", []byte("x")}), http.StatusBadRequest, "invalid_on_conflict")

		// replace: a new version; the old content is a previous version.
		e.mustOK(e.uploadMode(bob, "kb://me/", "replace", upFile{"r.md", []byte("two!")}), http.StatusCreated, nil)
		if got := string(e.raw(bob, "kb://me/r.md")); got != "two!" {
			t.Fatalf("replaced content %q", got)
		}
		vs := e.versions(bob, "kb://me/r.md")
		if len(vs) != 2 || !vs[0].Current || vs[0].Size != 4 || vs[1].Size != 3 || vs[1].Current || vs[1].By != "bob" {
			t.Fatalf("versions %+v", vs)
		}

		// rename: name (2).ext, then (3).
		for i, want := range []string{"r (2).md", "r (3).md"} {
			var out struct {
				Items []itemJSON `json:"items"`
			}
			e.mustOK(e.uploadMode(bob, "kb://me/", "rename", upFile{"r.md", []byte(fmt.Sprint("copy ", i))}), http.StatusCreated, &out)
			if out.Items[0].Name != want {
				t.Fatalf("renamed to %q, want %q", out.Items[0].Name, want)
			}
		}
		if got := string(e.raw(bob, "kb://me/r (2).md")); got != "copy 0" {
			t.Fatalf("renamed copy %q", got)
		}
	})
}

func TestVersionsRestore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		_, eve := e.newUser("eve")
		e.mustUpload(bob, "kb://me/", upFile{"v.txt", []byte("first")})
		e.mustOK(e.uploadMode(bob, "kb://me/", "replace", upFile{"v.txt", []byte("second")}), http.StatusCreated, nil)
		vs := e.versions(bob, "kb://me/v.txt")
		first := vs[1].ID
		var it itemJSON
		e.mustOK(e.do(http.MethodPost, "/api/v1/resources/versions/restore", bob,
			map[string]any{"uri": "kb://me/v.txt", "version_id": first}), http.StatusOK, &it)
		if it.Size != 5 || string(e.raw(bob, "kb://me/v.txt")) != "first" {
			t.Fatalf("after restore: %+v %q", it, e.raw(bob, "kb://me/v.txt"))
		}
		if p := e.page(bob, "kb://me/v.txt", 0, 100); p.Text != "first" {
			t.Fatalf("page after restore %q", p.Text)
		}
		if vs := e.versions(bob, "kb://me/v.txt"); len(vs) != 3 || vs[0].Size != 5 || vs[0].Version != 3 {
			t.Fatalf("history after restore %+v", vs)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/versions/restore", bob,
			map[string]any{"uri": "kb://me/v.txt", "version_id": first + 1000}), http.StatusNotFound, "not_found")
		// Isolation: another user's file, its versions and their restore are 404.
		wantErr(t, e.do(http.MethodGet, q("/api/v1/resources/versions", "kb://users/bob/v.txt"), eve, nil), http.StatusNotFound, "not_found")
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/versions/restore", eve,
			map[string]any{"uri": "kb://users/bob/v.txt", "version_id": first}), http.StatusNotFound, "not_found")
		e.mustUpload(eve, "kb://me/", upFile{"v.txt", []byte("eve's")})
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/versions/restore", eve,
			map[string]any{"uri": "kb://me/v.txt", "version_id": first}), http.StatusNotFound, "not_found")
	})
}

func TestTrash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		_, eve := e.newUser("eve")
		before := e.blobFiles()
		e.mkdir(bob, "kb://me/docs/sub/")
		e.mustUpload(bob, "kb://me/docs/sub/", upFile{"a.md", []byte("alpha")})
		e.mustOK(e.uploadMode(bob, "kb://me/docs/sub/", "replace", upFile{"a.md", []byte("alpha 2")}), http.StatusCreated, nil)
		e.mustUpload(bob, "kb://me/docs/", upFile{"b.md", []byte("beta")})

		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/docs/"), bob, nil), http.StatusNoContent, nil)
		wantErr(t, e.do(http.MethodGet, q("/api/v1/resources/content", "kb://me/docs/b.md"), bob, nil), http.StatusNotFound, "not_found")
		items := e.trash(bob)
		if len(items) != 1 || items[0].URI != "kb://users/bob/docs/" || items[0].Kind != "dir" {
			t.Fatalf("trash %+v", items)
		}
		id := items[0].ID
		// Isolation: eve sees an empty trash and cannot restore or purge bob's item.
		if len(e.trash(eve)) != 0 {
			t.Fatal("eve sees bob's trash")
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/trash/restore", eve, map[string]any{"id": id}), http.StatusNotFound, "not_found")
		wantErr(t, e.do(http.MethodDelete, fmt.Sprint("/api/v1/trash/", id), eve, nil), http.StatusNotFound, "not_found")

		// The place is taken meanwhile: the item comes back as "docs (restored)".
		e.mkdir(bob, "kb://me/docs/")
		var it itemJSON
		e.mustOK(e.do(http.MethodPost, "/api/v1/trash/restore", bob, map[string]any{"id": id}), http.StatusOK, &it)
		if it.URI != "kb://users/bob/docs (restored)/" {
			t.Fatalf("restored to %s", it.URI)
		}
		if got := string(e.raw(bob, "kb://me/docs (restored)/sub/a.md")); got != "alpha 2" {
			t.Fatalf("restored bytes %q", got)
		}
		if vs := e.versions(bob, "kb://me/docs (restored)/sub/a.md"); len(vs) != 2 {
			t.Fatalf("restored history %+v", vs)
		}
		if len(e.trash(bob)) != 0 {
			t.Fatal("a restored item stayed in the trash")
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/trash/restore", bob, map[string]any{"id": id}), http.StatusNotFound, "not_found")

		// Purge one, then empty the trash; purged bytes are freed.
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/docs (restored)/b.md"), bob, nil), http.StatusNoContent, nil)
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/docs (restored)/sub/"), bob, nil), http.StatusNoContent, nil)
		items = e.trash(bob)
		if len(items) != 2 || items[0].Name != "sub" {
			t.Fatalf("trash %+v", items)
		}
		e.mustOK(e.do(http.MethodDelete, fmt.Sprint("/api/v1/trash/", items[1].ID), bob, nil), http.StatusNoContent, nil)
		var purged struct {
			Purged int `json:"purged"`
		}
		e.mustOK(e.do(http.MethodDelete, "/api/v1/trash", bob, nil), http.StatusOK, &purged)
		if purged.Purged != 1 || len(e.trash(bob)) != 0 {
			t.Fatalf("empty trash purged %d", purged.Purged)
		}
		if n := e.blobFiles(); n != before {
			t.Fatalf("%d blob files after purging everything bob uploaded, %d before", n, before)
		}
	})
}

func TestTrashExpiry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mustUpload(bob, "kb://me/", upFile{"old.md", []byte("old")}, upFile{"new.md", []byte("new")})
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/old.md"), bob, nil), http.StatusNoContent, nil)
		// Wide margins: under load the second delete and the expiry can take
		// tens of milliseconds, which must not age new.md past the TTL.
		time.Sleep(time.Second)
		e.Tree.SetTrashTTL(500 * time.Millisecond)
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/new.md"), bob, nil), http.StatusNoContent, nil)
		n, err := trash.New(e.Tree).ExpireTrash(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("expired %d, %v", n, err)
		}
		if items := e.trash(bob); len(items) != 1 || items[0].Name != "new.md" {
			t.Fatalf("trash after expiry %+v", items)
		}
	})
}
