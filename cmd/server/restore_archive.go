package main

import (
	"archive/tar"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/config"
)

// unpacked is what reading an archive found.
type unpacked struct {
	manifest
	database string          // the database member read, "" when none
	blobs    map[string]bool // the blobs read, each matching its hash
}

// readArchive reads every member to its end: the database into work (a
// SQLite file into work/new), the blobs into blobs, each checked against
// its name.
func readArchive(r io.Reader, cfg config.Config, work string, blobs *blob.Store) (unpacked, error) {
	a := unpacked{blobs: map[string]bool{}}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return a, archiveErr("at its start", err)
	}
	tr := tar.NewReader(gz)
	entry := "manifest.json"
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return a, archiveErr("after "+entry, err)
		}
		entry = h.Name
		switch {
		case h.Name == "manifest.json":
			if err := json.NewDecoder(tr).Decode(&a.manifest); err != nil {
				return a, archiveErr("inside "+entry, err)
			}
		case strings.HasPrefix(h.Name, "blobs/"):
			hash, err := readBlob(tr, h, blobs)
			if err != nil {
				return a, err
			}
			a.blobs[hash] = true
		case h.Name == "knowspace.db":
			if cfg.DatabaseDSN != "" {
				return a, errors.New("the archive holds a SQLite database but database_dsn is set")
			}
			if err := writeFile(filepath.Join(work, "new", "knowspace.db"), tr); err != nil {
				return a, archiveErr("inside "+entry, err)
			}
			a.database = h.Name
		case h.Name == "postgres.sql":
			if cfg.DatabaseDSN == "" {
				return a, errors.New("the archive holds a PostgreSQL dump; set database_dsn to an empty database")
			}
			if err := writeFile(filepath.Join(work, "postgres.sql"), tr); err != nil {
				return a, archiveErr("inside "+entry, err)
			}
			a.database = h.Name
		}
	}
	// gzip checks its checksum only once the stream is read to its end.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return a, archiveErr("after "+entry, err)
	}
	return a, nil
}

func readBlob(tr *tar.Reader, h *tar.Header, blobs *blob.Store) (string, error) {
	p, err := blobs.Put(tr, h.Size)
	if err != nil {
		return "", archiveErr("inside "+h.Name, err)
	}
	defer p.Abort()
	if want := strings.TrimPrefix(h.Name, "blobs/"); p.Hash != want {
		return "", fmt.Errorf("the archive is corrupt: %s holds bytes whose SHA-256 is %s", h.Name, p.Hash)
	}
	return p.Hash, p.Commit()
}

// whole checks that the archive held a manifest, the database it names
// and every blob it lists.
func (a unpacked) whole() error {
	switch {
	case a.Format == 0:
		return errors.New("the archive holds no manifest.json")
	case a.Format != 1:
		return fmt.Errorf("the archive's format %d is not one this version reads", a.Format)
	case a.database == "" || a.database != a.Database:
		return fmt.Errorf("the archive is incomplete: its database %s is missing", a.Database)
	}
	var missing []string
	for _, h := range a.Blobs {
		if !a.blobs[h] {
			missing = append(missing, h)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the archive is incomplete: %d of the %d blobs its manifest lists are missing (blobs/%s first)",
			len(missing), len(a.Blobs), missing[0])
	}
	return nil
}

// archiveErr says why reading the archive stopped where it did.
func archiveErr(where string, err error) error {
	var flateErr flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("the archive is truncated: it ends %s", where)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.Is(err, tar.ErrHeader), errors.As(err, &flateErr):
		return fmt.Errorf("the archive is corrupt %s: %w", where, err)
	}
	return fmt.Errorf("reading the archive %s: %w", where, err)
}

func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
