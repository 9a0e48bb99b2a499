// Package s3 keeps blobs in an S3-compatible object store (blob_store: s3).
// Credentials come from the standard AWS environment variables.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/knowspace/knowspace/internal/blob"
)

// Config names the bucket and where objects go in it.
type Config struct {
	Endpoint string // http(s)://host:port
	Bucket   string
	Prefix   string // prepended to every key, e.g. "knowspace/"
	Region   string
}

// partSize bounds what one upload holds in memory: a large blob goes up in
// parts of this size, never whole.
const partSize = 16 << 20

// Backend is a bucket (and prefix) of blobs.
type Backend struct {
	c      *minio.Client
	bucket string
	prefix string
}

// New connects to the store with credentials from AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, and checks the bucket.
func New(ctx context.Context, cfg Config) (*Backend, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("s3 endpoint %q: want http(s)://host[:port]", cfg.Endpoint)
	}
	c, err := minio.New(u.Host, &minio.Options{
		Creds:        credentials.NewEnvAWS(),
		Secure:       u.Scheme == "https",
		Region:       cfg.Region,
		BucketLookup: minio.BucketLookupPath, // works with every S3-compatible server
	})
	if err != nil {
		return nil, fmt.Errorf("s3 client: %w", err)
	}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("s3 bucket %s at %s: %w", cfg.Bucket, cfg.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("s3 bucket %s at %s does not exist", cfg.Bucket, cfg.Endpoint)
	}
	return &Backend{c: c, bucket: cfg.Bucket, prefix: cfg.Prefix}, nil
}

func (b *Backend) key(k string) string { return b.prefix + k }

func (b *Backend) Put(ctx context.Context, key, path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = b.c.PutObject(ctx, b.bucket, b.key(key), f, size, minio.PutObjectOptions{
		ContentType: "application/octet-stream", PartSize: partSize, NumThreads: 1})
	return err
}

func (b *Backend) Stat(ctx context.Context, key string) (blob.ObjectInfo, error) {
	oi, err := b.c.StatObject(ctx, b.bucket, b.key(key), minio.StatObjectOptions{})
	if err != nil {
		return blob.ObjectInfo{}, notExist(key, err)
	}
	return blob.ObjectInfo{Size: oi.Size, ModTime: oi.LastModified}, nil
}

func (b *Backend) Delete(ctx context.Context, key string) error {
	err := b.c.RemoveObject(ctx, b.bucket, b.key(key), minio.RemoveObjectOptions{})
	if err != nil && isNotFound(err) {
		return nil
	}
	return err
}

func (b *Backend) List(ctx context.Context, fn func(string, blob.ObjectInfo) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing when fn fails
	for oi := range b.c.ListObjects(ctx, b.bucket, minio.ListObjectsOptions{Prefix: b.prefix, Recursive: true}) {
		if oi.Err != nil {
			return oi.Err
		}
		if err := fn(strings.TrimPrefix(oi.Key, b.prefix), blob.ObjectInfo{Size: oi.Size, ModTime: oi.LastModified}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Open stats the object (so a missing one fails here, as os.Open does)
// and reads it by ranges from then on.
func (b *Backend) Open(ctx context.Context, key string) (blob.File, error) {
	oi, err := b.c.StatObject(ctx, b.bucket, b.key(key), minio.StatObjectOptions{})
	if err != nil {
		return nil, notExist(key, err)
	}
	return &object{b: b, ctx: ctx, key: b.key(key), name: key, size: oi.Size, mod: oi.LastModified}, nil
}

func isNotFound(err error) bool {
	code := minio.ToErrorResponse(err).Code
	return code == "NoSuchKey" || code == "NotFound" || code == "NoSuchObject"
}

func notExist(key string, err error) error {
	if isNotFound(err) {
		return &fs.PathError{Op: "open", Path: key, Err: fs.ErrNotExist}
	}
	return err
}

// object reads one stored object: ReadAt asks for exactly its range; Read
// streams from the current offset with one open-ended ranged request,
// reopened only after a Seek.
type object struct {
	b    *Backend
	ctx  context.Context
	key  string
	name string
	size int64
	mod  time.Time
	pos  int64
	body io.ReadCloser // open at pos, or nil
}

func (o *object) get(off, end int64) (io.ReadCloser, error) {
	opts := minio.GetObjectOptions{}
	if off > 0 || end > 0 { // SetRange(0, 0) would be the first byte alone
		if err := opts.SetRange(off, end); err != nil {
			return nil, err
		}
	}
	// Core.GetObject sends the request at once and hands back the body;
	// minio.Object would first fetch without the range.
	body, _, _, err := minio.Core{Client: o.b.c}.GetObject(o.ctx, o.b.bucket, o.key, opts)
	if err != nil {
		return nil, notExist(o.name, err)
	}
	return body, nil
}

func (o *object) Read(p []byte) (int, error) {
	if o.pos >= o.size {
		return 0, io.EOF
	}
	if o.body == nil {
		body, err := o.get(o.pos, 0)
		if err != nil {
			return 0, err
		}
		o.body = body
	}
	n, err := o.body.Read(p)
	o.pos += int64(n)
	if err == io.EOF && o.pos < o.size {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("s3: negative offset")
	}
	if off >= o.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	want := min(int64(len(p)), o.size-off)
	body, err := o.get(off, off+want-1)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	n, err := io.ReadFull(body, p[:want])
	if err == nil && want < int64(len(p)) {
		err = io.EOF
	}
	return n, err
}

func (o *object) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = o.pos + offset
	case io.SeekEnd:
		abs = o.size + offset
	default:
		return 0, errors.New("s3: bad whence")
	}
	if abs < 0 {
		return 0, errors.New("s3: negative position")
	}
	if abs != o.pos && o.body != nil {
		o.body.Close()
		o.body = nil
	}
	o.pos = abs
	return abs, nil
}

func (o *object) Close() error {
	if o.body != nil {
		err := o.body.Close()
		o.body = nil
		return err
	}
	return nil
}

func (o *object) Stat() (fs.FileInfo, error) { return fileInfo{o}, nil }

type fileInfo struct{ o *object }

func (fi fileInfo) Name() string       { return fi.o.name }
func (fi fileInfo) Size() int64        { return fi.o.size }
func (fi fileInfo) Mode() fs.FileMode  { return 0o600 }
func (fi fileInfo) ModTime() time.Time { return fi.o.mod }
func (fi fileInfo) IsDir() bool        { return false }
func (fi fileInfo) Sys() any           { return nil }
