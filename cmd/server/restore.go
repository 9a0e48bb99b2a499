package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/scratch"
	"github.com/knowspace/knowspace/internal/store"
)

// restorePrefix names a restore's scratch directory in the data directory:
// new/ holds the unpacked state until it is swapped in, old/ what it
// replaces until the swap is done.
const restorePrefix = "restore"

// restoreCommand puts an archive's state in place of the data directory's,
// all or nothing. The archive is unpacked into a scratch directory beside
// the data, every blob checked against its hash and, for SQLite, the
// restored database against the blobs (fsck); only then is it swapped in.
// An archive cut short or damaged is refused, naming the entry, and the
// data directory stays as it was. A PostgreSQL dump is loaded in one
// transaction into the configured database, which must be empty.
func restoreCommand(configPath string, args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	from := fs.String("from", "", "archive written by knowspace backup")
	replace := fs.Bool("replace", false, "replace what data_dir holds (removed once the restored state is in place)")
	if err := fs.Parse(args); err != nil || *from == "" {
		return errors.New("usage: knowspace restore --from FILE [--replace]")
	}
	cfg, err := config.Load(configPath, os.Getenv)
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(cfg.DataDir); err == nil && len(entries) > 0 && !*replace {
		return fmt.Errorf("restore: data dir %s is not empty (--replace replaces what it holds)", cfg.DataDir)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return err
	}
	if err := recoverSwap(cfg.DataDir); err != nil {
		return err
	}
	app.LogLeftovers(scratch.Sweep(cfg.DataDir, restorePrefix))
	work, err := scratch.Claim(cfg.DataDir, restorePrefix)
	if err != nil {
		return err
	}
	// A swap that could not be undone keeps its journal: the old data in
	// work stays for the next start to put back.
	defer func() {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, swapJournal)); err != nil {
			work.Release()
		}
	}()
	ctx := context.Background()
	m, freed, err := stage(ctx, cfg, *from, work.Path)
	if err != nil {
		return fmt.Errorf("restore: %s refused, %s left as it was: %w", *from, cfg.DataDir, err)
	}
	if m.Dialect != store.DialectSQLite {
		if err := loadDump(cfg, filepath.Join(work.Path, "postgres.sql")); err != nil {
			return fmt.Errorf("restore: %s left as it was: %w", cfg.DataDir, err)
		}
	}
	if err := swapIn(cfg.DataDir, work.Path, replaced(cfg)); err != nil {
		if m.Dialect != store.DialectSQLite {
			return fmt.Errorf("restore: the database is loaded but the blobs could not be put in place: %w", err)
		}
		return fmt.Errorf("restore: %s left as it was: %w", cfg.DataDir, err)
	}
	if m.Dialect != store.DialectSQLite {
		if freed, err = freeOrphans(ctx, configPath); err != nil {
			return err
		}
	}
	fmt.Printf("restore: %s database and %d blobs into %s (%d written after the database snapshot left out); run knowspace fsck to check\n",
		m.Dialect, len(m.Blobs)-freed, cfg.DataDir, freed)
	return nil
}

// replaced lists what a restore moves out of the data directory: the
// database and the blobs where they live there, and the session secret, so
// no token signed for the old users holds for the restored ones.
func replaced(cfg config.Config) []string {
	names := []string{"jwt.secret"}
	if cfg.DatabaseDSN == "" {
		names = append(names, "knowspace.db", "knowspace.db-wal", "knowspace.db-shm", "knowspace.db-journal")
	}
	if cfg.BlobStore != "s3" {
		names = append(names, "blobs")
	}
	return names
}

// stage unpacks the archive into work/new (a PostgreSQL dump into
// work/postgres.sql) and checks it is whole. With an object store the blobs
// are copied there, where bytes nothing references harm nothing and the
// blob sweep removes them. It returns how many blobs the restored database
// no longer references, left out.
func stage(ctx context.Context, cfg config.Config, from, work string) (manifest, int, error) {
	f, err := os.Open(from)
	if err != nil {
		return manifest{}, 0, err
	}
	defer f.Close()
	staged := filepath.Join(work, "new")
	blobs, err := blob.Open(staged)
	if err != nil {
		return manifest{}, 0, err
	}
	defer blobs.Close()
	a, err := readArchive(f, cfg, work, blobs)
	if err != nil {
		return a.manifest, 0, err
	}
	if err := a.whole(); err != nil {
		return a.manifest, 0, err
	}
	freed := 0
	if a.Dialect == store.DialectSQLite {
		if freed, err = fsckStaged(ctx, staged, blobs); err != nil {
			return a.manifest, 0, err
		}
	}
	if cfg.BlobStore == "s3" {
		if err := copyBlobs(ctx, cfg, blobs); err != nil {
			return a.manifest, 0, err
		}
		if err := os.RemoveAll(filepath.Join(staged, "blobs")); err != nil {
			return a.manifest, 0, err
		}
	}
	return a.manifest, freed, os.RemoveAll(filepath.Join(staged, "tmp"))
}

// fsckStaged checks the unpacked database against the unpacked blobs, and
// drops the blobs it does not reference.
func fsckStaged(ctx context.Context, dir string, blobs *blob.Store) (int, error) {
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		return 0, fmt.Errorf("the archive's database: %w", err)
	}
	defer st.Close()
	tree := knowledge.NewTree(st, blobs, 0)
	rep, err := tree.Fsck(ctx)
	if err != nil {
		return 0, fmt.Errorf("the archive's database: %w", err)
	}
	if rep.Damaged() {
		first := append(rep.Missing, rep.Corrupt...)[0]
		return 0, fmt.Errorf("the archive's database references %d missing and %d corrupt blobs (blobs/%s first)",
			len(rep.Missing), len(rep.Corrupt), first)
	}
	return tree.FreeBlobs(ctx, rep.Orphans)
}

// copyBlobs puts the checked blobs into the configured object store.
func copyBlobs(ctx context.Context, cfg config.Config, from *blob.Store) error {
	to, err := app.OpenBlobs(ctx, cfg)
	if err != nil {
		return err
	}
	defer to.Close()
	hashes, err := from.Hashes()
	if err != nil {
		return err
	}
	for _, h := range hashes {
		if err := copyBlob(from, to, h); err != nil {
			return fmt.Errorf("copy blob %s to the object store: %w", h, err)
		}
	}
	return nil
}

func copyBlob(from, to *blob.Store, hash string) error {
	f, err := from.Open(hash)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := to.Put(f, math.MaxInt64)
	if err != nil {
		return err
	}
	defer p.Abort()
	return p.Commit()
}

// loadDump runs a PostgreSQL dump in one transaction: a dump that fails
// halfway leaves the database as it was.
func loadDump(cfg config.Config, dump string) error {
	psql, err := exec.LookPath("psql")
	if err != nil {
		return errors.New("psql is not installed (postgresql-client)")
	}
	cmd := exec.Command(psql, "--quiet", "--single-transaction", "--set", "ON_ERROR_STOP=1", "--file", dump, cfg.DatabaseDSN)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("psql (the database of database_dsn must be empty): %w", err)
	}
	return nil
}

// freeOrphans drops the blobs a loaded PostgreSQL dump does not reference:
// the blob list was read after the dump's snapshot, so bytes only later
// rows named are not part of the restored state.
func freeOrphans(ctx context.Context, configPath string) (int, error) {
	a, err := open(ctx, configPath)
	if err != nil {
		return 0, err
	}
	defer a.Close()
	rep, err := a.Tree.Fsck(ctx)
	if err != nil {
		return 0, err
	}
	return a.Tree.FreeBlobs(ctx, rep.Orphans)
}
