package config

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
)

// TestDocumentedLDAPExamplesAreValid decodes every complete auth.ldap
// example of docs/ldap.md as the config file is read (unknown keys
// refused), so a misspelled or renamed setting in the docs fails here, and
// validates it (its CA file replaced by a real one).
func TestDocumentedLDAPExamplesAreValid(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ldap.md"))
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	ldaptest.WriteSelfSigned(t, ca, filepath.Join(t.TempDir(), "key.pem"))
	t.Setenv("KB_LDAP_BIND_PASSWORD", "secret")

	blocks := regexp.MustCompile("(?s)```yaml\n(auth:\n  ldap:\n.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d auth.ldap examples, want the reference, OpenLDAP and Active Directory", len(blocks))
	}
	for i, b := range blocks {
		var file struct {
			Auth Auth `yaml:"auth"`
		}
		dec := yaml.NewDecoder(bytes.NewReader(b[1]))
		dec.KnownFields(true)
		if err := dec.Decode(&file); err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, b[1])
			continue
		}
		if file.Auth.LDAP.CAFile != "" {
			file.Auth.LDAP.CAFile = ca
		}
		if err := (Config{Auth: file.Auth}).validateAuth(); err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, b[1])
		}
		if !strings.Contains(string(b[1]), "bind_password_env") {
			t.Errorf("example %d has no bind_password_env", i+1)
		}
	}
}
