//go:build !linux

package compile

// ProtectServer has no portable equivalent of Linux's PR_SET_DUMPABLE;
// docs/SECURITY.md tells operators to run CLI programs as another user.
func ProtectServer() error { return nil }
