package main

import (
	"context"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/blob/s3"
	"github.com/knowspace/knowspace/internal/config"
)

// openBlobs opens the configured blob store; staging is always under the
// data dir, so an upload is checked on local disk before it is published.
func openBlobs(ctx context.Context, cfg config.Config) (*blob.Store, error) {
	if cfg.BlobStore != "s3" {
		return blob.Open(cfg.DataDir)
	}
	b, err := s3.New(ctx, s3.Config{Endpoint: cfg.S3.Endpoint, Bucket: cfg.S3.Bucket, Prefix: cfg.S3.Prefix, Region: cfg.S3.Region})
	if err != nil {
		return nil, err
	}
	return blob.OpenWith(cfg.DataDir, b)
}
