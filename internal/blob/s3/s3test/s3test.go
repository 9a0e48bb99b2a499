// Package s3test starts a real S3-compatible server (SeaweedFS's weed)
// for tests, on free loopback ports with a temporary directory.
package s3test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/knowspace/knowspace/internal/blob/s3"
)

// Access keys of the test server's one identity; Start puts them in the
// AWS environment variables, where the backend reads its credentials.
const (
	AccessKey = "knowspace-test"
	SecretKey = "knowspace-test-secret"
)

// Binary finds weed: $KB_WEED, then PATH, then the cache .ci/run builds it
// into.
func Binary() string {
	if p := os.Getenv("KB_WEED"); p != "" {
		return p
	}
	if p, err := exec.LookPath("weed"); err == nil {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".cache", "knowspace-tools", "weed")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Start runs `weed server -s3` until the test ends and returns the config
// of a new empty bucket in it; without the binary, or if the server does
// not come up, the test is skipped with the reason.
func Start(t testing.TB) s3.Config {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skip("no SeaweedFS weed binary (set KB_WEED, or build it as .ci/run does): the S3 blob store tests are skipped")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "s3.json")
	os.WriteFile(conf, []byte(`{"identities":[{"name":"test","credentials":[{"accessKey":"`+AccessKey+
		`","secretKey":"`+SecretKey+`"}],"actions":["Admin","Read","Write","List","Tagging"]}]}`), 0o600)
	ports := freePorts(t, 8)
	s3Port := ports[6]
	args := []string{"server", "-dir=" + filepath.Join(dir, "data"), "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-master.port=" + ports[0], "-master.port.grpc=" + ports[1],
		"-volume.port=" + ports[2], "-volume.port.grpc=" + ports[3],
		"-filer.port=" + ports[4], "-filer.port.grpc=" + ports[5],
		"-s3", "-s3.port=" + s3Port, "-s3.port.grpc=" + ports[7], "-s3.config=" + conf,
		"-s3.port.iceberg=0", "-s3.port.lance=0",
		"-master.volumeSizeLimitMB=64", "-volume.max=16"}
	os.MkdirAll(filepath.Join(dir, "data"), 0o700)
	cmd := exec.Command(bin, args...)
	logf, _ := os.Create(filepath.Join(dir, "weed.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	// The server must not outlive a test binary that crashes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skipf("weed did not start (%v): the S3 blob store tests are skipped", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		logf.Close()
	})
	t.Setenv("AWS_ACCESS_KEY_ID", AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", SecretKey)
	cfg := s3.Config{Endpoint: "http://127.0.0.1:" + s3Port, Bucket: fmt.Sprintf("kb-test-%d", time.Now().UnixNano()%1e9),
		Prefix: "blobs/", Region: "us-east-1"}
	c, err := minio.New("127.0.0.1:"+s3Port, &minio.Options{Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""),
		Region: cfg.Region, BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	// Ready means a bucket can be made and written: the S3 port answers
	// before the master has a volume to give.
	deadline := time.Now().Add(90 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		if last = ready(c, cfg.Bucket); last == nil {
			return cfg
		}
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "weed.log"))
	t.Skipf("weed server -s3 did not become ready in 90s (%v); its log ends:\n%s", last, tail(string(log), 2000))
	return s3.Config{}
}

func ready(c *minio.Client, bucket string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ok, err := c.BucketExists(ctx, bucket); err != nil {
		return err
	} else if !ok {
		if err := c.MakeBucket(ctx, bucket, minio.MakeBucketOptions{}); err != nil {
			return err
		}
	}
	_, err := c.PutObject(ctx, bucket, "ready-probe", strings.NewReader("ok"), 2, minio.PutObjectOptions{})
	if err != nil {
		return err
	}
	return c.RemoveObject(ctx, bucket, "ready-probe", minio.RemoveObjectOptions{})
}

func freePorts(t testing.TB, n int) []string {
	var out []string
	var lns []net.Listener
	for len(out) < n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
