package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestLoginBudgetOverHTTP: with a budget of one password check a second,
// twenty concurrent logins for made-up names are all answered, each with
// a wrong-credentials 401 or a 429 too_many_logins carrying Retry-After;
// the hashes themselves are counted in internal/auth.
func TestLoginBudgetOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		stack := apptest.NewStack(t, dialect, apptest.LoginsPerSecond(1))
		srv := httptest.NewServer(httpapi.New(httpapi.Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree}))
		t.Cleanup(srv.Close)
		client := &http.Client{Transport: httpapi.CheckingTransport{T: t}}

		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", srv.URL+"/api/v1/auth/login",
					strings.NewReader(fmt.Sprintf(`{"username":"made-up-%d","password":"wrong-password"}`, i)))
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer res.Body.Close()
				var e errorJSON
				if err := json.NewDecoder(res.Body).Decode(&e); err != nil {
					t.Errorf("login answer %d: %v", res.StatusCode, err)
				}
				key := fmt.Sprintf("%d %s", res.StatusCode, e.Error.Code)
				if res.StatusCode == 429 && (res.Header.Get("Retry-After") != "1" || !strings.Contains(e.Error.Message, "try again in 1 seconds")) {
					key += " without the wait: " + res.Header.Get("Retry-After") + " " + e.Error.Message
				}
				mu.Lock()
				got[key]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if len(got) != 2 || got["401 invalid_credentials"] < 1 || got["429 too_many_logins"] < 1 {
			t.Fatalf("answers %v: want 401 invalid_credentials and 429 too_many_logins with Retry-After 1", got)
		}
	})
}
