package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestErrorsCarryTheirValuesInFields: a client shows an error by its code
// in its own language, so every value a message names (a place, a name, a
// limit) is also a field of the error object; nobody parses the English.
func TestErrorsCarryTheirValuesInFields(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		errorFieldCases(t, newEnv(t, dialect))
	})
}

func errorFieldCases(t *testing.T, e *env) {
	_, bob := e.newUser("bob")
	big := bytes.Repeat([]byte("x"), apptest.UploadLimit+1)

	cases := []struct {
		name   string
		send   func() resp
		code   string
		fields map[string]any
	}{
		{"an absent file", func() resp {
			return e.do(http.MethodGet, q("/api/v1/resources/content", "kb://me/gone.md"), bob, nil)
		}, "not_found", map[string]any{"uri": "kb://users/bob/gone.md"}},
		{"a folder read as a file", func() resp {
			return e.do(http.MethodGet, q("/api/v1/resources/content", "kb://me/notes/"), bob, nil)
		}, "not_a_file", map[string]any{"uri": "kb://users/bob/notes/"}},
		{"a folder made twice", func() resp {
			return e.do(http.MethodPost, "/api/v1/resources/folders", bob, map[string]string{"uri": "kb://me/notes/"})
		}, "already_exists", map[string]any{"uri": "kb://users/bob/notes/"}},
		{"a file too large", func() resp {
			return e.upload(bob, "kb://me/", upFile{"big.bin", big})
		}, "file_too_large", map[string]any{"file": "big.bin", "limit_bytes": float64(apptest.UploadLimit)}},
		{"a list too long", func() resp {
			return e.invalid().do(http.MethodGet, q("/api/v1/resources", "kb://me/", "limit", "100000"), bob, nil)
		}, "invalid_limit", map[string]any{"max": float64(1000)}},
		{"a short password", func() resp {
			return e.do(http.MethodPost, "/api/v1/admin/users", e.Admin, map[string]string{"username": "carol", "password": "short", "role": "user"})
		}, "weak_password", map[string]any{"min": float64(8)}},
		{"a taken username", func() resp {
			return e.do(http.MethodPost, "/api/v1/admin/users", e.Admin, map[string]string{"username": "bob", "password": userPassword, "role": "user"})
		}, "username_taken", map[string]any{"username": "bob"}},
		{"an absent conversation", func() resp {
			return e.do(http.MethodGet, "/api/v1/knowledge-agent/conversations/999999", bob, nil)
		}, "conversation_not_found", map[string]any{"conversation_id": float64(999999)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.send()
			var body struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil || body.Error["code"] != c.code {
				t.Fatalf("want %s, got %s", c.code, r)
			}
			got := map[string]any{}
			for k := range c.fields {
				got[k] = body.Error[k]
			}
			if !reflect.DeepEqual(got, c.fields) {
				t.Fatalf("fields %v, want %v in %s", got, c.fields, r)
			}
		})
	}
}
