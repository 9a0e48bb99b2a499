package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/scratch"
	"github.com/knowspace/knowspace/internal/store"
)

// manifest describes a backup archive: the database dump it holds and the
// SHA-256 of every blob, which is also the blob's name.
type manifest struct {
	Format    int       `json:"format"`
	Dialect   string    `json:"dialect"`
	Database  string    `json:"database"` // the archive member holding the database
	CreatedAt time.Time `json:"created_at"`
	Blobs     []string  `json:"blobs"`
}

// backupCommand writes a consistent archive of a running server: a database
// snapshot first, then every blob the snapshot references. Blobs are never
// rewritten, only removed after their last reference goes, so a blob the
// snapshot names is still there unless it was purged meanwhile; then the
// backup starts over.
func backupCommand(configPath string, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	out := fs.String("out", "", "archive to write (.tar.gz)")
	if err := fs.Parse(args); err != nil || *out == "" {
		return errors.New("usage: knowspace backup --out FILE")
	}
	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.Store.Close()
	for attempt := 0; ; attempt++ {
		err = writeBackup(ctx, a, *out)
		if !errors.Is(err, errBlobGone) || attempt == 2 {
			return err
		}
	}
}

// backupPrefix names a backup's scratch directory in the data directory.
const backupPrefix = "backup"

var errBlobGone = errors.New("a referenced blob was purged during the backup")

func writeBackup(ctx context.Context, a *app.Core, out string) error {
	// A backup killed midway leaves a database copy here; the lock says
	// it is ours, so the next start removes it once we are gone.
	scr, err := scratch.Claim(a.Config.DataDir, backupPrefix)
	if err != nil {
		return err
	}
	defer scr.Release()
	work := scr.Path
	m := manifest{Format: 1, Dialect: a.Store.Dialect(), CreatedAt: time.Now().UTC()}
	dbPath := filepath.Join(work, "db")
	var refs *store.Store
	switch m.Dialect {
	case store.DialectSQLite:
		m.Database = "knowspace.db"
		if err := a.Store.SnapshotSQLite(ctx, dbPath); err != nil {
			return fmt.Errorf("snapshot database: %w", err)
		}
		snapDir := filepath.Join(work, "snap")
		os.MkdirAll(snapDir, 0o700)
		os.Rename(dbPath, filepath.Join(snapDir, "knowspace.db"))
		dbPath = filepath.Join(snapDir, "knowspace.db")
		if refs, err = store.Open(ctx, "", snapDir); err != nil {
			return err
		}
		defer refs.Close()
	default:
		m.Database = "postgres.sql"
		pgDump, err := exec.LookPath("pg_dump")
		if err != nil {
			return errors.New("pg_dump is not installed: install postgresql-client, or dump the database yourself (see README, Backup)")
		}
		cmd := exec.CommandContext(ctx, pgDump, "--no-owner", "--file", dbPath, a.Config.DatabaseDSN)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("pg_dump: %w", err)
		}
		// A dump is one snapshot; blobs named by rows written after it
		// are copied too, which is harmless.
		refs = a.Store
	}
	if m.Blobs, err = refs.ReferencedBlobs(ctx); err != nil {
		return err
	}
	f, err := os.OpenFile(out+".part", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(out + ".part")
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	raw, _ := json.MarshalIndent(m, "", "  ")
	if err := addBytes(tw, "manifest.json", raw); err != nil {
		return err
	}
	if err := addFile(tw, m.Database, dbPath); err != nil {
		return err
	}
	for _, h := range m.Blobs {
		bf, err := a.Blobs.Open(h)
		if errors.Is(err, os.ErrNotExist) {
			return errBlobGone
		}
		if err != nil {
			return err
		}
		err = addReader(tw, "blobs/"+h, bf)
		bf.Close()
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("backup: %s (%s, %d blobs)\n", out, m.Dialect, len(m.Blobs))
	return os.Rename(out+".part", out)
}

func addBytes(tw *tar.Writer, name string, b []byte) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(b)), ModTime: time.Now()}); err != nil {
		return err
	}
	_, err := tw.Write(b)
	return err
}

func addFile(tw *tar.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return addReader(tw, name, f)
}

func addReader(tw *tar.Writer, name string, f interface {
	io.Reader
	Stat() (os.FileInfo, error)
}) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime()}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}

// fsckCommand checks the blob store against the database; damage (a
// referenced blob missing or not matching its hash) exits non-zero.
func fsckCommand(configPath string) error {
	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.Store.Close()
	rep, err := a.Tree.Fsck(ctx)
	if err != nil {
		return err
	}
	report(rep)
	if rep.Damaged() {
		return fmt.Errorf("fsck: %d missing and %d corrupt blobs", len(rep.Missing), len(rep.Corrupt))
	}
	return nil
}

func report(rep knowledge.FsckReport) {
	fmt.Printf("fsck: %d referenced blobs, %d missing, %d corrupt, %d orphaned\n",
		rep.Referenced, len(rep.Missing), len(rep.Corrupt), len(rep.Orphans))
	for _, list := range []struct {
		what   string
		hashes []string
	}{{"missing", rep.Missing}, {"corrupt", rep.Corrupt}, {"orphan", rep.Orphans}} {
		for _, h := range list.hashes {
			fmt.Printf("%s %s\n", list.what, h)
		}
	}
}
