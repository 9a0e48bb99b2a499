package s3_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/blob/blobtest"
	"github.com/knowspace/knowspace/internal/blob/s3"
	"github.com/knowspace/knowspace/internal/blob/s3/s3test"
)

// TestS3Suite runs the blob-store suite against a real SeaweedFS server,
// one bucket prefix per case.
func TestS3Suite(t *testing.T) {
	cfg := s3test.Start(t)
	blobtest.Run(t, func(t *testing.T) blob.Backend {
		c := cfg
		c.Prefix = cfg.Prefix + t.Name() + "/"
		b, err := s3.New(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func TestNewChecksTheBucket(t *testing.T) {
	cfg := s3test.Start(t)
	cfg.Bucket = "no-such-bucket"
	if _, err := s3.New(context.Background(), cfg); err == nil {
		t.Fatal("a missing bucket was accepted")
	}
	if _, err := s3.New(context.Background(), s3.Config{Endpoint: "ftp://x", Bucket: "b"}); err == nil {
		t.Fatal("a non-http endpoint was accepted")
	}
}
