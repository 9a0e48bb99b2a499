package sso

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"
)

// pending is a sign-in between its start and the provider's answer. It
// travels in a signed cookie of the browser that started it, so any
// replica can finish it and a forged or swapped answer finds no match.
type pending struct {
	Provider string    `json:"p"`
	State    string    `json:"s"`
	Nonce    string    `json:"n"`
	Verifier string    `json:"v"` // PKCE
	Return   string    `json:"r"` // where the web app goes afterwards
	Expires  time.Time `json:"e"`
}

// pendingTTL is how long a user may take at the provider's login page.
const pendingTTL = 10 * time.Minute

func (s *Service) seal(p pending) string {
	body, _ := json.Marshal(p)
	enc := base64.RawURLEncoding.EncodeToString(body)
	return enc + "." + base64.RawURLEncoding.EncodeToString(s.mac(enc))
}

func (s *Service) open(cookie string) (pending, bool) {
	enc, sig, ok := strings.Cut(cookie, ".")
	if !ok {
		return pending{}, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(enc)) {
		return pending{}, false
	}
	body, err := base64.RawURLEncoding.DecodeString(enc)
	var p pending
	if err != nil || json.Unmarshal(body, &p) != nil || !s.now().Before(p.Expires) {
		return pending{}, false
	}
	return p, true
}

func (s *Service) mac(enc string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(enc))
	return m.Sum(nil)
}
