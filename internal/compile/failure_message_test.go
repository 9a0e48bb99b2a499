package compile

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/store"
)

// A failure that quotes bytes which are not UTF-8 (here a CLI's stderr) is
// recorded once, as a permanent failure with a readable message, on both
// databases: PostgreSQL used to refuse the update and rerun the job.
func TestFailureMessageQuotingRawBytes(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		bad := script(t, `cat >/dev/null; printf 'xref at \377\376\000\033[31m broken' >&2; exit 4`)
		e := newEnv(t, dialect, func(o *Options) {
			o.CLIProfiles = []config.CLIProfile{{Name: "raw", Argv: []string{bad}}}
		})
		e.put(e.alice, "kb://me/f/", map[string][]byte{"a.md": []byte("text")})
		id := e.enqueue(e.alice, Request{URIs: []string{"kb://me/f/a.md"}, Executor: ExecutorCLI, CLIProfile: "raw"}).Jobs[0].ID
		e.start(1)
		j := e.wait(e.alice, id, store.JobFailed)
		if j.Error.Code != "cli_failed" || j.Attempts != 1 || !utf8.ValidString(j.Error.Message) ||
			strings.ContainsAny(j.Error.Message, "\x00\x1b") || !strings.Contains(j.Error.Message, "broken") {
			t.Fatalf("%+v %+v", j, j.Error)
		}
	})
}
