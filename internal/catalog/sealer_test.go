package catalog

import (
	"errors"
	"strings"
	"testing"
)

// A sealed key opens only with its secrets key and for its model; its
// ciphertext never holds the key, and two seals differ.
func TestSealer(t *testing.T) {
	t.Parallel()
	a, _ := NewSealer(strings.Repeat("a", 32))
	b, _ := NewSealer(strings.Repeat("b", 32))
	const key = "sk-live-0123456789abcdef"
	s1, err := a.Seal(key, "m1")
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := a.Seal(key, "m1")
	if s1 == s2 || strings.Contains(s1, key) || strings.Contains(s1, "cdef") {
		t.Fatalf("seals %q %q", s1, s2)
	}
	if got, err := a.Open(s1, "m1"); err != nil || got != key {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := a.Open(s1, "m2"); err == nil {
		t.Fatal("a key opened for another model")
	}
	if _, err := b.Open(s1, "m1"); !errors.Is(err, ErrWrongSecretsKey) {
		t.Fatalf("another secrets key: %v", err)
	}
	if !a.SealedWith(s1) || b.SealedWith(s1) {
		t.Fatal("SealedWith")
	}
	if _, err := NewSealer(""); err == nil {
		t.Fatal("an empty secrets key made a sealer")
	}
}
