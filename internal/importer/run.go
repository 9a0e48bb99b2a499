package importer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/archive"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Result is what a finished import reports.
type Result struct {
	FolderURI string         `json:"folder_uri"`
	Files     int            `json:"files"`
	Folders   int            `json:"folders"`
	Skipped   []archive.Skip `json:"skipped"`
}

// progressEvery spaces the progress writes of a large archive.
const progressEvery = 250 * time.Millisecond

// Run unpacks the job's archive and commits the tree (compile.Runner).
func (s *Service) Run(ctx context.Context, j store.Job, owner string) (any, error) {
	var cfg config
	if j.ConfigurationJSON == nil || json.Unmarshal([]byte(*j.ConfigurationJSON), &cfg) != nil || j.BlobHash == "" && cfg.Staged == "" {
		return nil, &failure{code: "bad_configuration", msg: "the import job's snapshot is unreadable"}
	}
	u, err := s.Store.UserByID(ctx, j.UserID)
	if err != nil {
		return nil, fmt.Errorf("job owner: %w", err)
	}
	c := kb.Caller{ID: u.ID, Username: u.Username}
	res, err := s.run(ctx, j, owner, c, cfg)
	if err != nil {
		err = asFailure(err)
		var f *failure
		if errors.As(err, &f) && !f.retry {
			// Final: no later attempt needs the archive.
			s.dropArchive(ctx, j, cfg)
		}
		return nil, err
	}
	s.dropArchive(ctx, j, cfg)
	return store.Completed{Result: res}, nil
}

// openArchive opens the job's archive wherever it was kept.
func (s *Service) openArchive(j store.Job, cfg config) (archive.Source, func() error, error) {
	if j.BlobHash != "" {
		f, err := s.Tree.Blobs().Open(j.BlobHash)
		if err != nil {
			return nil, nil, err
		}
		return f, f.Close, nil
	}
	f, err := s.Tree.Blobs().OpenStaged(cfg.Staged)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

func (s *Service) dropArchive(ctx context.Context, j store.Job, cfg config) {
	if j.BlobHash != "" {
		// A file or another waiting job may hold the same bytes.
		s.Tree.FreeBlobsBestEffort(ctx, []string{j.BlobHash})
	} else {
		s.Tree.Blobs().RemoveStaged(cfg.Staged)
	}
}

func (s *Service) run(ctx context.Context, j store.Job, owner string, c kb.Caller, cfg config) (Result, error) {
	format, _, ok := archive.FormatOf(cfg.Archive)
	if !ok {
		return Result{}, &failure{code: "not_an_archive", msg: "the job's file is not an archive"}
	}
	f, closeArchive, err := s.openArchive(j, cfg)
	if errors.Is(err, os.ErrNotExist) {
		return Result{}, &failure{code: "archive_gone", msg: "the uploaded archive is no longer kept (the import already ended); upload it again"}
	}
	if err != nil {
		return Result{}, err
	}
	defer closeArchive()

	var (
		dirs [][]string
		last time.Time
		perr error
	)
	progress := func(p float64) {
		if perr != nil || time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		perr = s.Store.SetJobProgress(ctx, j.ID, owner, "unpack", 0.9*p)
	}
	lim := archive.Limits{MaxEntries: cfg.MaxEntries, MaxBytes: cfg.MaxBytes, MaxEntryBytes: s.MaxUpload}
	stager := newStager(s.Tree)
	skipped, err := archive.Walk(ctx, f, cfg.Size, format, lim, progress, func(e archive.Entry, body io.Reader) error {
		if perr != nil {
			return perr
		}
		if e.Dir {
			dirs = append(dirs, e.Path)
			return nil
		}
		return stager.add(strings.Join(e.Path, "/"), e.Size, body)
	})
	files, badNames, serr := stager.wait()
	if err == nil {
		err = cmp.Or(perr, serr)
	}
	if err != nil {
		knowledge.Discard(files)
		return Result{}, err
	}
	if err := s.Store.SetJobProgress(ctx, j.ID, owner, "commit", 0.9); err != nil {
		knowledge.Discard(files)
		return Result{}, err
	}
	dirs, badDirs := checkedDirs(dirs)
	skipped = append(append(skipped, badNames...), badDirs...)
	nf := len(files)
	var res Result
	_, err = s.Tree.CommitImport(ctx, c, knowledge.Import{Target: cfg.Target, Top: cfg.Folder, Dirs: dirs,
		Files: files, OnConflict: cfg.OnConflict,
		Guard: func(tx *store.Store) error { return tx.HoldJob(ctx, j.ID, owner) },
		// The job completes in the commit's transaction: a worker that dies
		// after the commit leaves a finished job, not one a second worker
		// would run again when the lease expires (duplicating every file).
		Done: func(tx *store.Store, items []knowledge.Item) error {
			res = Result{FolderURI: cfg.Target, Files: nf, Folders: folderCount(dirs, files), Skipped: nonNil(skipped)}
			if cfg.Folder != "" && len(items) > 0 {
				res.FolderURI = items[0].URI
			}
			b, err := json.Marshal(res)
			if err != nil {
				return err
			}
			return tx.CompleteJob(ctx, j.ID, owner, string(b))
		}})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// checkedDirs keeps the folder entries whose names are valid, spelled as
// the tree stores them; an invalid folder name is skipped with its files
// (each file is refused by its own path), and said once.
func checkedDirs(dirs [][]string) ([][]string, []archive.Skip) {
	out := dirs[:0]
	var bad []archive.Skip
next:
	for _, d := range dirs {
		clean := make([]string, len(d))
		for i, seg := range d {
			c, err := kb.ValidateName(seg)
			if err != nil {
				if i == len(d)-1 {
					bad = append(bad, archive.Skip{Name: strings.Join(d, "/") + "/", Reason: err.Error()})
				}
				continue next
			}
			clean[i] = c
		}
		out = append(out, clean)
	}
	return out, bad
}

// folderCount counts the folders an import makes: its folder entries and
// the folders its files' paths name (many archives list no folder entries).
func folderCount(dirs [][]string, files []knowledge.Staged) int {
	seen := map[string]bool{}
	add := func(path []string) {
		for i := 1; i <= len(path); i++ {
			seen[strings.Join(path[:i], "/")] = true
		}
	}
	for _, d := range dirs {
		add(d)
	}
	for _, f := range files {
		add(f.Dir)
	}
	return len(seen)
}

func nonNil(s []archive.Skip) []archive.Skip {
	if s == nil {
		return []archive.Skip{}
	}
	return s
}
