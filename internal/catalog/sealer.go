package catalog

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// sealedPrefix starts every sealed key: the format, then the fingerprint
// of the secrets key that sealed it, so a key sealed with another secrets
// key is named as such instead of failing as noise.
const sealedPrefix = "v1:"

// ErrWrongSecretsKey means a stored key was sealed with another secrets
// key than the one configured.
var ErrWrongSecretsKey = errors.New("sealed with another secrets key")

// Sealer seals API keys with AES-256-GCM under a key derived from the
// configured secrets key; the model id is the associated data, so a sealed
// key copied to another row does not open.
type Sealer struct {
	aead cipher.AEAD
	fp   string
}

// NewSealer derives the AES key from secret (secrets_key).
func NewSealer(secret string) (*Sealer, error) {
	if secret == "" {
		return nil, errors.New("no secrets key")
	}
	key := sha256.Sum256([]byte("knowspace model keys\x00" + secret))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	fp := sha256.Sum256([]byte("knowspace secrets key id\x00" + secret))
	return &Sealer{aead: aead, fp: hex.EncodeToString(fp[:4])}, nil
}

// Seal encrypts plain for the model id with a fresh nonce.
func (s *Sealer) Seal(plain, id string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	}
	ct := s.aead.Seal(nonce, nonce, []byte(plain), []byte(id))
	return sealedPrefix + s.fp + ":" + base64.RawStdEncoding.EncodeToString(ct), nil
}

// Open decrypts a sealed key of the model id; ErrWrongSecretsKey when
// another secrets key sealed it.
func (s *Sealer) Open(sealed, id string) (string, error) {
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	fp, body, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return "", errors.New("not a sealed key")
	}
	if fp != s.fp {
		return "", ErrWrongSecretsKey
	}
	raw, err := base64.RawStdEncoding.DecodeString(body)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", errors.New("not a sealed key")
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], []byte(id))
	if err != nil {
		return "", errors.New("the sealed key does not open: altered, or moved from another model")
	}
	return string(plain), nil
}

// SealedWith tells whether this sealer's secrets key sealed the key.
func (s *Sealer) SealedWith(sealed string) bool {
	return strings.HasPrefix(sealed, sealedPrefix+s.fp+":")
}
