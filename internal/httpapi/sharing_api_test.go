package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

type shareJSON struct {
	ID   int64  `json:"id"`
	URI  string `json:"uri"`
	Role string `json:"role"`
	User *struct {
		Username string `json:"username"`
	} `json:"user"`
	Group *struct {
		Name string `json:"name"`
	} `json:"group"`
	Inherited bool `json:"inherited"`
}

type sharedItemJSON struct {
	URI   string `json:"uri"`
	Name  string `json:"name"`
	Owner string `json:"owner"`
	Role  string `json:"role"`
}

func (e *env) share(token, uri, kind, name, role string) shareJSON {
	e.t.Helper()
	var out shareJSON
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/shares", token,
		map[string]string{"uri": uri, kind: name, "role": role}), http.StatusCreated, &out)
	return out
}

func (e *env) sharedWithMe(token string) []sharedItemJSON {
	e.t.Helper()
	var out struct {
		Access string           `json:"access"`
		Items  []sharedItemJSON `json:"items"`
	}
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", "kb://shared/"), token, nil), http.StatusOK, &out)
	return out.Items
}

func (e *env) access(token, uri string) string {
	e.t.Helper()
	var out struct {
		Access string `json:"access"`
	}
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", uri), token, nil), http.StatusOK, &out)
	return out.Access
}

// aliceTeamTree gives alice a shared-to-be folder team/ with a file and a
// subfolder, and a private secret/ beside it holding the isolation tests'
// secret under the same names.
func aliceTeamTree(e *env, alice string) {
	e.t.Helper()
	e.mkdir(alice, "kb://me/team/sub/")
	e.mustUpload(alice, "kb://me/team/", upFile{"paper.md", []byte("team paper about tidal energy\n")})
	e.mustUpload(alice, "kb://me/team/sub/", upFile{"notes.txt", []byte("team notes\n")})
	e.mkdir(alice, "kb://me/secret/inner/")
	e.mustUpload(alice, "kb://me/secret/", upFile{"plan.md", []byte(aliceSecret + " tidal energy")}, upFile{"café.md", []byte(aliceSecret)})
	e.mustUpload(alice, "kb://me/secret/inner/", upFile{"deep.txt", []byte(aliceSecret)})
}

// TestShareReadOnlyWithUser: a read grantee sees exactly the shared root in
// kb://shared/, reads below it, gets 403 on every write and cannot re-share;
// alice's other folders stay 404 under every spelling; an admin who is not a
// grantee gets 404; a revoke ends it on the next request.
func TestShareReadOnlyWithUser(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, alice := e.newUser("alice")
		_, bob := e.newUser("bob")
		aliceTeamTree(e, alice)
		e.mustUpload(bob, "kb://me/", upFile{"bait.txt", []byte("bait")})
		e.mustUpload(e.Admin, "kb://me/", upFile{"bait.txt", []byte("bait")})
		if got := e.sharedWithMe(bob); len(got) != 0 {
			t.Fatalf("nothing shared yet, kb://shared/ lists %+v", got)
		}

		sh := e.share(alice, "kb://me/team/", "user", "bob", "read")
		if sh.URI != "kb://users/alice/team/" || sh.Role != "read" || sh.User == nil || sh.User.Username != "bob" || sh.Inherited {
			t.Fatalf("share %+v", sh)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/shares", alice,
			map[string]string{"uri": "kb://me/team/", "user": "bob", "role": "write"}), http.StatusConflict, "already_shared")
		roots := e.sharedWithMe(bob)
		if len(roots) != 1 || roots[0].URI != "kb://users/alice/team/" || roots[0].Owner != "alice" || roots[0].Role != "read" {
			t.Fatalf("kb://shared/ for bob: %+v", roots)
		}
		if got := e.names(bob, "kb://users/alice/team/"); !slices.Equal(got, []string{"sub", "paper.md"}) {
			t.Fatalf("bob lists team/: %v", got)
		}
		if a := e.access(bob, "kb://users/alice/team/sub/"); a != "read" {
			t.Fatalf("access below a read share = %q", a)
		}
		if a := e.access(alice, "kb://me/team/"); a != "owner" {
			t.Fatalf("owner's access = %q", a)
		}
		if p := e.page(bob, "kb://users/alice/team/sub/notes.txt", 0, 100); p.Text != "team notes\n" {
			t.Fatalf("bob reads notes: %+v", p)
		}
		if b := string(e.raw(bob, "kb://users/alice/team/paper.md")); !strings.Contains(b, "tidal") {
			t.Fatalf("bob downloads paper: %q", b)
		}

		aliceBefore := e.snapshot(alice)
		for what, r := range map[string]resp{
			"upload": e.upload(bob, "kb://users/alice/team/", upFile{"x.txt", []byte("x")}),
			"mkdir":  e.do(http.MethodPost, "/api/v1/resources/folders", bob, map[string]string{"uri": "kb://users/alice/team/new/"}),
			"rename": e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{"uri": "kb://users/alice/team/paper.md", "new_uri": "kb://users/alice/team/p2.md"}),
			"delete": e.do(http.MethodDelete, q("/api/v1/resources", "kb://users/alice/team/sub/notes.txt"), bob, nil),
			"restore-version": e.do(http.MethodPost, "/api/v1/resources/versions/restore", bob,
				map[string]any{"uri": "kb://users/alice/team/paper.md", "version_id": 1}),
		} {
			if code, _, _ := r.APIError(); r.Status != http.StatusForbidden || code != "read_only" {
				t.Errorf("bob's %s in a read share: want 403 read_only, got %s", what, r)
			}
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/shares", bob,
			map[string]string{"uri": "kb://users/alice/team/", "user": "carol", "role": "read"}), http.StatusForbidden, "not_owner")
		wantErr(t, e.do(http.MethodGet, q("/api/v1/resources/shares", "kb://users/alice/team/"), bob, nil), http.StatusForbidden, "not_owner")
		wantErr(t, e.do(http.MethodPatch, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), bob, map[string]string{"role": "write"}), http.StatusNotFound, "share_not_found")
		wantErr(t, e.do(http.MethodDelete, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), bob, nil), http.StatusNotFound, "share_not_found")

		// Everything of alice's outside team/ stays invisible, by any
		// spelling and endpoint, to bob and to an admin; team/ too, to the admin.
		for _, s := range aliceSpellings() {
			for _, a := range uriAttempts() {
				checkRefused(t, "bob "+a.endpoint+" "+s, a.send(e, bob, s))
				checkRefused(t, "admin "+a.endpoint+" "+s, a.send(e, e.Admin, s))
			}
		}
		for _, s := range []string{"kb://users/alice/team/", "kb://users/alice/team/paper.md", "kb://users/alice/team/sub/notes.txt"} {
			checkRefused(t, "admin list "+s, e.do(http.MethodGet, q("/api/v1/resources", s), e.Admin, nil))
			checkRefused(t, "admin content "+s, e.do(http.MethodGet, q("/api/v1/resources/content", s), e.Admin, nil))
		}
		sameSnapshot(t, "alice after bob's refused writes", aliceBefore, e.snapshot(alice))

		// The owner sees who has access, on the node and inherited below it.
		var list struct{ Items []shareJSON }
		e.mustOK(e.do(http.MethodGet, q("/api/v1/resources/shares", "kb://me/team/sub/notes.txt"), alice, nil), http.StatusOK, &list)
		if len(list.Items) != 1 || !list.Items[0].Inherited || list.Items[0].URI != "kb://users/alice/team/" {
			t.Fatalf("shares covering notes.txt: %+v", list.Items)
		}

		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), alice, nil), http.StatusNoContent, nil)
		checkRefused(t, "bob after revoke", e.do(http.MethodGet, q("/api/v1/resources", "kb://users/alice/team/"), bob, nil))
		if got := e.sharedWithMe(bob); len(got) != 0 {
			t.Fatalf("after revoke kb://shared/ lists %+v", got)
		}
	})
}

// TestShareWriteGrantee: a write grantee changes the shared subtree, with
// authorship recorded, but never moves a node out of it, into their own
// tree, or moves or deletes the shared folder itself.
func TestShareWriteGrantee(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, alice := e.newUser("alice")
		_, bob := e.newUser("bob")
		aliceTeamTree(e, alice)
		e.mkdir(alice, "kb://me/other/")
		sh := e.share(alice, "kb://me/team/", "user", "bob", "read")
		var changed shareJSON
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), alice, map[string]string{"role": "write"}), http.StatusOK, &changed)
		if changed.Role != "write" {
			t.Fatalf("role change: %+v", changed)
		}
		wantErr(t, e.invalid().do(http.MethodPatch, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), alice, map[string]string{"role": "admin"}), http.StatusBadRequest, "invalid_role")
		if a := e.access(bob, "kb://users/alice/team/"); a != "write" {
			t.Fatalf("access = %q", a)
		}

		up := e.mustUpload(bob, "kb://users/alice/team/", upFile{"by-bob.txt", []byte("bob wrote this")})
		if up[0].URI != "kb://users/alice/team/by-bob.txt" {
			t.Fatalf("upload lands at %s", up[0].URI)
		}
		e.mkdir(bob, "kb://users/alice/team/bobs/")
		e.mustOK(e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{
			"uri": "kb://users/alice/team/by-bob.txt", "new_uri": "kb://users/alice/team/bobs/renamed.txt"}), http.StatusOK, nil)
		if vs := e.versions(alice, "kb://me/team/bobs/renamed.txt"); len(vs) != 1 || vs[0].By != "bob" {
			t.Fatalf("versions name the author: %+v", vs)
		}
		e.mustUpload(alice, "kb://me/team/", upFile{"by-alice.txt", []byte("alice")})
		if vs := e.versions(bob, "kb://users/alice/team/by-alice.txt"); len(vs) != 1 || vs[0].By != "alice" {
			t.Fatalf("owner's version: %+v", vs)
		}

		for _, dst := range []string{"kb://me/stolen.txt", "kb://users/bob/stolen.txt", "kb://users/alice/other/stolen.txt", "kb://users/alice/stolen.txt"} {
			wantErr(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{
				"uri": "kb://users/alice/team/paper.md", "new_uri": dst}), http.StatusForbidden, "outside_share")
		}
		wantErr(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{
			"uri": "kb://users/alice/team/paper.md", "new_uri": "kb://users/alice/secret/stolen.txt"}), http.StatusForbidden, "outside_share")
		wantErr(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{
			"uri": "kb://users/alice/team/", "new_uri": "kb://users/alice/team2/"}), http.StatusForbidden, "share_root")
		wantErr(t, e.do(http.MethodDelete, q("/api/v1/resources", "kb://users/alice/team/"), bob, nil), http.StatusForbidden, "share_root")
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/folders", bob, map[string]string{"uri": "kb://users/alice/other/x/"}), http.StatusNotFound, "not_found")

		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://users/alice/team/bobs/"), bob, nil), http.StatusNoContent, nil)
		tr := e.trash(alice)
		if len(tr) != 1 || tr[0].URI != "kb://users/alice/team/bobs/" || tr[0].DeletedBy != "bob" {
			t.Fatalf("alice's trash: %+v", tr)
		}
		if got := e.trash(bob); len(got) != 0 {
			t.Fatalf("bob's trash holds alice's item: %+v", got)
		}
		if got := e.names(alice, "kb://me/team/"); !slices.Equal(got, []string{"sub", "by-alice.txt", "paper.md"}) {
			t.Fatalf("alice's team/ after bob's changes: %v", got)
		}
	})
}

// TestShareWithGroup: membership is read at each request, so removing a
// member or deleting the group ends access on the next call; a share below
// another folds into one kb://shared/ entry.
func TestShareWithGroup(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, alice := e.newUser("alice")
		carol, carolTok := e.newUser("carol")
		_, dave := e.newUser("dave")
		aliceTeamTree(e, alice)

		var g struct {
			ID      int64
			Name    string
			Members []struct{ Username string }
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/groups", e.Admin, map[string]string{"name": "Research"}), http.StatusCreated, &g)
		if g.Name != "research" {
			t.Fatalf("group %+v", g)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/admin/groups", e.Admin, map[string]string{"name": "research"}), http.StatusConflict, "already_exists")
		wantErr(t, e.do(http.MethodPost, "/api/v1/admin/groups", alice, map[string]string{"name": "mine"}), http.StatusForbidden, "admin_only")
		e.mustOK(e.do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, carol.ID), e.Admin, nil), http.StatusOK, &g)
		if len(g.Members) != 1 || g.Members[0].Username != "carol" {
			t.Fatalf("members %+v", g.Members)
		}
		var mine struct{ Items []struct{ Name string } }
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/groups", carolTok, nil), http.StatusOK, &mine)
		if len(mine.Items) != 1 || mine.Items[0].Name != "research" {
			t.Fatalf("carol's groups %+v", mine.Items)
		}

		e.share(alice, "kb://me/team/", "group", "research", "read")
		e.share(alice, "kb://me/team/sub/", "user", "carol", "write")
		roots := e.sharedWithMe(carolTok)
		if len(roots) != 1 || roots[0].URI != "kb://users/alice/team/" {
			t.Fatalf("carol's kb://shared/: %+v", roots)
		}
		if len(e.sharedWithMe(dave)) != 0 {
			t.Fatal("dave, in no group, sees a share")
		}
		checkRefused(t, "dave", e.do(http.MethodGet, q("/api/v1/resources", "kb://users/alice/team/"), dave, nil))
		if a := e.access(carolTok, "kb://users/alice/team/sub/"); a != "write" {
			t.Fatalf("the stronger share below wins: %q", a)
		}
		if a := e.access(carolTok, "kb://users/alice/team/"); a != "read" {
			t.Fatalf("team/ through the group: %q", a)
		}

		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, carol.ID), e.Admin, nil), http.StatusNoContent, nil)
		checkRefused(t, "carol after removal", e.do(http.MethodGet, q("/api/v1/resources", "kb://users/alice/team/paper.md"), carolTok, nil))
		if roots := e.sharedWithMe(carolTok); len(roots) != 1 || roots[0].URI != "kb://users/alice/team/sub/" {
			t.Fatalf("after removal only her own share remains: %+v", roots)
		}

		e.mustOK(e.do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, carol.ID), e.Admin, nil), http.StatusOK, nil)
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/admin/groups/%d", g.ID), e.Admin, nil), http.StatusNoContent, nil)
		checkRefused(t, "carol after group deleted", e.do(http.MethodGet, q("/api/v1/resources", "kb://users/alice/team/"), carolTok, nil))
		var list struct{ Items []shareJSON }
		e.mustOK(e.do(http.MethodGet, "/api/v1/resources/shares", alice, nil), http.StatusOK, &list)
		if len(list.Items) != 1 || list.Items[0].User == nil || list.Items[0].User.Username != "carol" {
			t.Fatalf("the group's share ended with it: %+v", list.Items)
		}
	})
}

// TestSearchSharedWalksEveryRoot: a search of kb://shared/ covers exactly
// the roots shared with the caller, across owners and pages, and nothing
// of the owners' other folders.
func TestSearchSharedWalksEveryRoot(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, alice := e.newUser("alice")
		_, carol := e.newUser("carol")
		_, bob := e.newUser("bob")
		aliceTeamTree(e, alice)
		var files []upFile
		for i := range 45 {
			files = append(files, upFile{fmt.Sprintf("c%02d.txt", i), []byte("tidal log")})
		}
		e.mkdir(carol, "kb://me/logs/")
		e.mustUpload(carol, "kb://me/logs/", files...)
		e.mustUpload(carol, "kb://me/", upFile{"private.txt", []byte(aliceSecret + " tidal")})
		e.mustUpload(alice, "kb://me/", upFile{"single.md", []byte("one shared file: tidal")})
		e.share(alice, "kb://me/team/", "user", "bob", "read")
		e.share(alice, "kb://me/single.md", "user", "bob", "read")
		e.share(carol, "kb://me/logs/", "user", "bob", "read")

		// read on kb://shared/ itself is refused with a way forward.
		wantErr(t, e.do(http.MethodPost, "/api/v1/knowledge-agent/command", bob, map[string]any{"command": "read", "uri": "kb://shared/"}),
			http.StatusBadRequest, "virtual_folder")
		// The counts below are of an index that holds every file: a file
		// still waiting for the index writer is read in full, and counted.
		if err := e.Index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"index", "scan"} {
			if mode == "scan" {
				// As while the index is rebuilt: every file is read.
				if err := e.Store.MarkSearchIndex(context.Background(), false); err != nil {
					t.Fatal(err)
				}
			}
			walkSharedSearch(t, e, bob, mode, aliceSecret)
		}
	})
}

// walkSharedSearch pages a search of kb://shared/ to its end: every match
// once, nothing unshared. Scanning reads the 48 files once; the index ranks
// its 47 candidates, read again on each of the two pages.
func walkSharedSearch(t *testing.T, e *env, bob, mode, aliceSecret string) {
	t.Helper()
	type page struct {
		URI        string
		Mode       string
		Hits       []struct{ URI string }
		Scanned    int
		NextOffset *string `json:"next_offset"`
		Complete   bool
	}
	{
		seen := map[string]int{}
		var offset *string
		pages, scanned := 0, 0
		for {
			body := map[string]any{"command": "search", "uri": "kb://shared/", "query": "tidal"}
			if offset != nil {
				body["offset"] = *offset
			}
			var p page
			r := e.do(http.MethodPost, "/api/v1/knowledge-agent/command", bob, body)
			e.mustOK(r, http.StatusOK, &p)
			if strings.Contains(string(r.Body), aliceSecret) {
				t.Fatalf("a page leaks an unshared file: %s", r)
			}
			if p.URI != "kb://shared/" {
				t.Fatalf("page uri %q", p.URI)
			}
			pages++
			scanned += p.Scanned
			for _, h := range p.Hits {
				seen[h.URI]++
			}
			if p.Complete {
				break
			}
			if p.NextOffset == nil || pages > 5 {
				t.Fatalf("incomplete page without a cursor: %+v", p)
			}
			offset = p.NextOffset
		}
		// 2 files in alice's team/ (one matches), single.md, 45 logs: two pages.
		want := 48
		if mode == "index" {
			want = 2 * 47
		}
		if pages != 2 || scanned != want || len(seen) != 47 {
			t.Fatalf("%s: pages %d, scanned %d, matched files %d: %v", mode, pages, scanned, len(seen), seen)
		}
		for uri, n := range seen {
			if n != 1 {
				t.Errorf("%s hit on %d pages", uri, n)
			}
		}
		if seen["kb://users/alice/single.md"] != 1 || seen["kb://users/carol/logs/c44.txt"] != 1 || seen["kb://users/alice/team/paper.md"] != 1 {
			t.Fatalf("hits %v", seen)
		}
	}
}
