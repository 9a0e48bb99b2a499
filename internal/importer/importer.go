// Package importer turns an uploaded archive into a folder as a background
// job (kind "import") on the compile queue: the archive is staged where any
// replica can read it, a worker unpacks it entry by entry within the
// limits of package archive, and the whole tree commits in one transaction,
// so a cancel or a failure leaves no folder behind.
package importer

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/archive"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Kind is the job kind of a folder import.
const Kind = "import"

// Defaults of the import limits (config import.*).
const (
	DefaultMaxEntries = 20000
	DefaultMaxBytes   = 2 << 30
	// timeoutS bounds one import job; it is read by the worker pool.
	timeoutS = 3600
)

// Limits bound one import.
type Limits struct {
	MaxEntries int
	MaxBytes   int64
}

// Service enqueues and runs imports.
type Service struct {
	Store  *store.Store
	Tree   *knowledge.Tree
	Limits Limits
	// MaxUpload bounds each unpacked file, as an upload's.
	MaxUpload int64
	// Notify wakes a local worker after an enqueue (compile.Service.Notify).
	Notify func()
	// QueuedJobsPerUser caps one user's waiting jobs, imports counted with
	// compiles (limits.queued_jobs_per_user; 0 means no cap here).
	QueuedJobsPerUser int
}

func (s *Service) limits() Limits {
	l := s.Limits
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// config is the job's snapshot: everything a worker elsewhere needs.
type config struct {
	Archive string `json:"archive"` // the uploaded file's name
	// Staged names the copy in one replica's staging directory that jobs
	// queued before the archive moved to the blob store (Job.BlobHash) read.
	Staged     string `json:"staged,omitempty"`
	Size       int64  `json:"size"`
	Target     string `json:"target"` // the folder URI it lands in
	Folder     string `json:"folder,omitempty"`
	OnConflict string `json:"on_conflict"`
	MaxEntries int    `json:"max_entries"`
	MaxBytes   int64  `json:"max_bytes"`
	TimeoutS   int    `json:"timeout_s"`
}

// Request is POST /resources/import.
type Request struct {
	URI        string // the folder to create the new folder in
	Into       string // or an existing folder to unpack into
	OnConflict string
	FileName   string
}

// Validate checks what can be checked before a byte is read.
func (r Request) Validate() (archive.Format, string, error) {
	f, base, ok := archive.FormatOf(r.FileName)
	if !ok {
		return 0, "", apierr.BadRequest(apierr.CodeNotAnArchive, "%q is not a .zip, .tar, .tar.gz or .tgz file", kb.Clip(r.FileName, 80))
	}
	if r.URI == "" && r.Into == "" {
		return 0, "", apierr.BadRequest(apierr.CodeMissingURI, "uri (the folder to create the import in) or into (an existing folder) is required")
	}
	return f, base, nil
}

// Enqueue stages the archive body and queues its import; the job's
// progress and cancel are the task center's.
func (s *Service) Enqueue(ctx context.Context, c kb.Caller, r Request, body io.Reader) (store.Job, error) {
	_, base, err := r.Validate()
	if err != nil {
		return store.Job{}, err
	}
	onConflict, err := knowledge.ParseConflict(r.OnConflict)
	if err != nil {
		return store.Job{}, err
	}
	target, folder := r.URI, ""
	if r.Into != "" {
		target = r.Into
	} else {
		folder, err = kb.ValidateName(base)
		if err != nil {
			return store.Job{}, apierr.BadRequest(apierr.CodeInvalidName, "the archive's name %q cannot name a folder; pass into= an existing folder", kb.Clip(base, 80))
		}
	}
	u, n, err := s.Tree.ResolveWrite(ctx, c, target)
	if err != nil {
		return store.Job{}, err
	}
	if !n.IsDir() {
		return store.Job{}, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", u).WithDetail("uri", u.String())
	}
	if s.QueuedJobsPerUser > 0 {
		// Checked before the archive is staged: a refusal costs no disk.
		queued, err := s.Store.CountQueuedJobs(ctx, c.ID)
		if err != nil {
			return store.Job{}, apierr.Internal("import: count queued jobs", err)
		}
		if queued >= int64(s.QueuedJobsPerUser) {
			return store.Job{}, apierr.TooMany(apierr.CodeQueueFull, "you already have %d queued jobs, the most one user may have; wait for some to finish or cancel them", queued).WithDetail("max", queued)
		}
	}
	j := store.Job{UserID: c.ID, Kind: Kind, Path: n.ChildPath(folder), OutputPath: n.ChildPath(folder), MaxAttempts: 3}
	if folder == "" {
		j.Path, j.OutputPath = n.Path, n.Path
	}
	if u.Username != c.Username {
		o, err := s.Store.UserByUsername(ctx, u.Username)
		if err != nil {
			return store.Job{}, apierr.Internal("import: read target owner", err)
		}
		j.SourceUserID = &o.ID
	}
	lim := s.limits()
	var out store.Job
	err = s.keepArchive(ctx, r.FileName, body, lim.MaxBytes, func(tx *store.Store, hash string, size int64) error {
		cfg := config{Archive: r.FileName, Size: size, Target: u.String(), Folder: folder,
			OnConflict: onConflict, MaxEntries: lim.MaxEntries, MaxBytes: lim.MaxBytes, TimeoutS: timeoutS}
		b, _ := json.Marshal(cfg)
		js := string(b)
		j.ConfigurationJSON, j.BlobHash = &js, hash
		var err error
		out, _, err = tx.EnqueueJob(ctx, &j)
		return err
	})
	if err != nil {
		return store.Job{}, apierr.From(err)
	}
	if s.Notify != nil {
		s.Notify()
	}
	return out, nil
}

// failure is a job error with the code the task center shows.
type failure struct {
	code, msg string
	retry     bool
}

func (f *failure) Error() string { return f.code + ": " + f.msg }

// JobFailure tells the worker pool how to record it.
func (f *failure) JobFailure() (string, string, bool) { return f.code, f.msg, f.retry }

// asFailure gives refusals and bad requests their own code; anything else
// is left to the pool (a cancel, a lost lease, the database, a full disk:
// a staged file that failed for space is no bad request).
func asFailure(err error) error {
	var ae *archive.Error
	if errors.As(err, &ae) {
		return &failure{code: ae.Code, msg: ae.Message}
	}
	if e := apierr.From(err); e.Status < 500 {
		return &failure{code: e.Code.String(), msg: e.Message}
	}
	return err
}
