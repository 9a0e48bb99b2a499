package config

import (
	"errors"
	"fmt"
	"strconv"
)

// DefaultAuditRetentionDays keeps a year of the audit log.
const DefaultAuditRetentionDays = 365

// Audit configures the audit log.
type Audit struct {
	// RetentionDays is how long an event is kept; older ones are swept.
	RetentionDays int `yaml:"retention_days"`
}

func (a *Audit) fromEnv(getenv func(string) string) error {
	v := getenv("KB_AUDIT_RETENTION_DAYS")
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("KB_AUDIT_RETENTION_DAYS: %q is not an integer", v)
	}
	a.RetentionDays = n
	return nil
}

func (a Audit) validate() error {
	if a.RetentionDays < 1 || a.RetentionDays > 36500 {
		return errors.New("audit.retention_days: must be between 1 and 36500")
	}
	return nil
}
