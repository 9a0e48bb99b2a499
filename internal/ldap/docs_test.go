package ldap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/knowspace/knowspace/internal/ldap"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
)

// TestDocumentedExamplesAreValid decodes every complete ldap: example of
// the LDAP documentation with unknown keys refused, so a misspelled or
// renamed setting in the docs fails here, and validates it (its CA file
// replaced by a real one).
func TestDocumentedExamplesAreValid(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ldap.md"))
	if os.IsNotExist(err) { // the section may live in the README instead
		doc, err = os.ReadFile(filepath.Join("..", "..", "README.md"))
	}
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	ldaptest.WriteSelfSigned(t, ca, filepath.Join(t.TempDir(), "key.pem"))
	t.Setenv("KB_LDAP_BIND_PASSWORD", "secret")

	blocks := regexp.MustCompile("(?s)```yaml\n(ldap:\n.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d ldap: examples, want the reference, OpenLDAP and Active Directory", len(blocks))
	}
	for i, b := range blocks {
		var file struct {
			LDAP ldap.Config `yaml:"ldap"`
		}
		dec := yaml.NewDecoder(bytes.NewReader(b[1]))
		dec.KnownFields(true)
		if err := dec.Decode(&file); err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, b[1])
			continue
		}
		if file.LDAP.CAFile != "" {
			file.LDAP.CAFile = ca
		}
		if err := file.LDAP.Validate(); err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, b[1])
		}
		if !strings.Contains(string(b[1]), "bind_password_env") {
			t.Errorf("example %d has no bind_password_env", i+1)
		}
	}
}
