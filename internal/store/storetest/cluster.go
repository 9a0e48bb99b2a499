package storetest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Cluster is a PostgreSQL server of a test's own, started from this
// machine's PostgreSQL binaries in a temporary directory: a test can crash
// it, which it must never do to the shared server.
type Cluster struct {
	t   testing.TB
	bin string
	dir string
	// DSN reaches the cluster's database postgres as user postgres,
	// through the Unix socket in its directory (it listens on no port).
	DSN string
}

// StartCluster initializes and starts a cluster, stopped and removed when
// the test ends. The test is skipped where PostgreSQL's server binaries
// are not installed.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	out, err := exec.Command("pg_config", "--bindir").Output()
	bin := strings.TrimSpace(string(out))
	if err != nil {
		t.Skip("pg_config is not installed: no PostgreSQL server to start")
	}
	if _, err := os.Stat(filepath.Join(bin, "initdb")); err != nil {
		t.Skipf("no initdb in %s: PostgreSQL's server is not installed", bin)
	}
	dir, err := os.MkdirTemp("", "kb-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, dir: dir}
	t.Cleanup(func() {
		// Stopped already when the test ended on a crash.
		c.command("pg_ctl", "-D", c.data(), "stop", "-m", "immediate").Run()
		os.RemoveAll(dir)
	})
	// The server refuses to run as root; as root, the cluster is the
	// postgres user's.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres user to run the server as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	c.run("initdb", "-D", c.data(), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
	c.Start()
	c.DSN = "postgres://postgres@/postgres?sslmode=disable&host=" + dir
	return c
}

// Start starts the cluster and waits until it accepts connections; after
// Crash, it recovers first, as PostgreSQL does after a power cut.
func (c *Cluster) Start() {
	c.t.Helper()
	c.pgCtl("start", "-w", "-l", filepath.Join(c.dir, "log"),
		"-o", fmt.Sprintf("-c listen_addresses='' -k %s -c fsync=off", c.dir))
}

// Crash stops the server at once, without a checkpoint: the next start
// runs crash recovery, which empties unlogged tables.
func (c *Cluster) Crash() {
	c.t.Helper()
	c.pgCtl("stop", "-m", "immediate")
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) pgCtl(args ...string) {
	c.t.Helper()
	c.run("pg_ctl", append([]string{"-D", c.data()}, args...)...)
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(c.bin, name)}, args...)...)
	}
	return exec.Command(filepath.Join(c.bin, name), args...)
}

func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := c.command(name, args...).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		c.t.Fatalf("%s %s: %v\n%s\nserver log:\n%s", name, strings.Join(args, " "), err, out, log)
	}
}
