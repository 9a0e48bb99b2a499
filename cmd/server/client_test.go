package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
)

// answer is one exchange with the server.
type answer struct {
	status int
	body   []byte
}

func (a answer) code() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	json.Unmarshal(a.body, &e)
	return e.Error.Code
}

func (a answer) String() string { return fmt.Sprintf("%d %.300s", a.status, a.body) }

// send is how every request of these tests reaches the server; a request
// that gets no answer fails with the server's logs.
func (s *server) send(req *http.Request) answer {
	s.t.Helper()
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", req.Method, req.URL, err, s.logs())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, b}
}

func (s *server) call(method, path, token string, body any) answer {
	s.t.Helper()
	status, b := s.request(method, path, token, body)
	return answer{status, b}
}

// request sends body JSON-encoded (nil for none) to path with the token.
func (s *server) request(method, path, token string, body any) (int, []byte) {
	s.t.Helper()
	var raw any
	if body != nil {
		b, _ := json.Marshal(body)
		raw = b
	}
	a := s.send(apptest.Client{URL: "http://" + s.addr}.Request(s.t, context.Background(), method, path, token, raw))
	return a.status, a.body
}

// login returns a session token, or "" with the status when refused.
func (s *server) login(user, password string) (string, int) {
	s.t.Helper()
	status, body := s.request("POST", "/api/v1/auth/login", "", map[string]string{"username": user, "password": password})
	if status != http.StatusOK {
		return "", status
	}
	var out struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Token == "" {
		s.t.Fatalf("login answer %s", body)
	}
	return out.Token, status
}

func (s *server) mustLogin(user, password string) string {
	s.t.Helper()
	tok, status := s.login(user, password)
	if tok == "" {
		s.t.Fatalf("login %s: status %d\n%s", user, status, s.logs())
	}
	return tok
}

// multipart posts one file part to path.
func (s *server) multipart(path, token, name string, content []byte) answer {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(content)
	mw.Close()
	req, _ := http.NewRequest("POST", "http://"+s.addr+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return s.send(req)
}
