package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// audit.retention_days defaults to a year, is read from the file and from
// KB_AUDIT_RETENTION_DAYS, and names itself when out of range.
func TestAuditRetention(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || c.Audit.RetentionDays != 365 {
		t.Fatalf("default: %d %v", c.Audit.RetentionDays, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("audit:\n  retention_days: 90\n"), 0o600)
	if c, err = Load(path, env(nil)); err != nil || c.Audit.RetentionDays != 90 {
		t.Fatalf("from the file: %d %v", c.Audit.RetentionDays, err)
	}
	if c, err = Load(path, env(map[string]string{"KB_AUDIT_RETENTION_DAYS": "30"})); err != nil || c.Audit.RetentionDays != 30 {
		t.Fatalf("from the environment: %d %v", c.Audit.RetentionDays, err)
	}
	for _, bad := range []string{"0", "40000"} {
		os.WriteFile(path, []byte("audit:\n  retention_days: "+bad+"\n"), 0o600)
		if _, err := Load(path, env(nil)); err == nil || !strings.Contains(err.Error(), "audit.retention_days") {
			t.Errorf("retention_days %s: %v", bad, err)
		}
	}
	if _, err := Load("", env(map[string]string{"KB_AUDIT_RETENTION_DAYS": "forever"})); err == nil || !strings.Contains(err.Error(), "KB_AUDIT_RETENTION_DAYS") {
		t.Errorf("KB_AUDIT_RETENTION_DAYS=forever: %v", err)
	}
}
