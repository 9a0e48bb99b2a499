package config

import (
	"strings"
	"testing"
)

// The secrets key that seals the admin's model keys comes from the file or
// KB_SECRETS_KEY; it must be long and may not be the JWT secret, so one
// leaked value never opens both.
func TestSecretsKey(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("s", 32)
	c, err := Load("", env(map[string]string{"KB_SECRETS_KEY": long}))
	if err != nil || c.SecretsKey != long {
		t.Fatalf("from the environment: %q %v", c.SecretsKey, err)
	}
	for _, e := range []map[string]string{
		{"KB_SECRETS_KEY": "short"},
		{"KB_SECRETS_KEY": long, "KB_JWT_SECRET": long},
	} {
		if _, err := Load("", env(e)); err == nil || !strings.HasPrefix(err.Error(), "secrets_key:") {
			t.Errorf("%v: %v", e, err)
		}
	}
	if serverSecrets["KB_SECRETS_KEY"] != true {
		t.Error("a CLI profile could be handed KB_SECRETS_KEY")
	}
}
