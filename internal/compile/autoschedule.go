package compile

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// DefaultAutoRetry is how long a folder whose batch could not queue
// everything (a full queue, a file whose job is still running) waits
// before it is scanned again.
const DefaultAutoRetry = 15 * time.Second

// BatchResult says what one scan of a folder kept compiled queued.
type BatchResult struct {
	Summaries int // summary jobs created
	Overviews int // overview jobs created
	Removed   int // generated nodes removed with the source folders they came from
	Retry     bool
	Reason    string
}

// schedule claims the folders kept compiled whose quiet period is over and
// queues their batches, until none is due. Replicas share the work: a
// claim is a lease on the folder's row.
func (p *Pool) schedule() {
	defer p.wg.Done()
	owner := workerPrefix() + "-auto"
	t := time.NewTicker(p.s.poll)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
		}
		for range 100 { // bounded, so a stop is noticed
			done, err := p.s.RunDueAuto(p.ctx, owner)
			if err != nil && p.ctx.Err() == nil {
				slog.Warn("auto-compile batch", "err", err)
			}
			if done || err != nil {
				break
			}
		}
	}
}

// RunDueAuto claims one due folder and queues its batch; done tells that
// no folder was due.
func (s *Service) RunDueAuto(ctx context.Context, owner string) (done bool, err error) {
	a, err := s.st.ClaimDueAutoCompile(ctx, owner, 2*s.lease)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return true, err
	}
	res, err := s.batch(ctx, a)
	var retry *time.Time
	msg := res.Reason
	if err != nil {
		res.Retry, msg = true, "the batch failed: "+safeMessage(err)
		if _, ok := apierr.As(err); !ok {
			slog.Warn("auto-compile batch failed", "folder", a.NodeID, "err", err)
		}
	}
	if res.Retry {
		at := time.Now().Add(s.autoRetry)
		retry = &at
	}
	// Recorded even when ctx ended: the claim must not wait for its lease.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if ferr := s.st.FinishAutoCompile(fctx, a.ID, owner, a.ChangeSeq, retry, msg); ferr != nil && !errors.Is(ferr, store.ErrClaimLost) {
		return false, ferr
	}
	if res.Summaries+res.Overviews+res.Removed > 0 {
		slog.Info("auto-compile batch queued", "folder", a.NodeID, "user_id", a.UserID,
			"summary_jobs", res.Summaries, "overview_jobs", res.Overviews, "removed", res.Removed, "retry", res.Retry)
		s.notify()
	}
	return false, nil
}

// sourceDir is one folder below the folder kept compiled, with its files
// and where their summaries go.
type sourceDir struct {
	node  store.Node
	out   string
	files []store.Node
}

// batch scans the folder kept compiled and queues a summary job for each
// file whose summary is missing or was made from other bytes or choices
// (the fingerprint), then one overview job per folder whose summaries
// changed or lost a file.
func (s *Service) batch(ctx context.Context, a store.AutoCompile) (BatchResult, error) {
	var res BatchResult
	u, err := s.st.UserByID(ctx, a.UserID)
	if err != nil {
		return res, err
	}
	if u.Disabled {
		return res, nil
	}
	c := kb.Caller{ID: u.ID, Username: u.Username}
	root, err := s.st.NodeByID(ctx, c.ID, a.NodeID)
	if errors.Is(err, store.ErrNotFound) {
		return res, nil // deleted: its row goes with it
	}
	if err != nil {
		return res, err
	}
	var req Request
	if err := json.Unmarshal([]byte(a.RequestJSON), &req); err != nil {
		return res, err
	}
	req.URIs = []string{kb.NodeURI(c.Username, root.Path, true)}
	snap, err := s.snapshot(ctx, c, req)
	if err != nil {
		return BatchResult{Retry: true, Reason: "the saved choices no longer work: " + safeMessage(err)}, nil
	}
	snap.NoOverview = true
	outRoot := knowledge.GeneratedRoot
	if root.Path != "" {
		outRoot += "/" + root.Path
	}
	if snap.OutputParent != "" {
		_, op, err := s.tree.Resolve(ctx, c, snap.OutputParent)
		if err != nil {
			return BatchResult{Retry: true, Reason: "output_parent: " + safeMessage(err)}, nil
		}
		outRoot = op.Path
	}
	dirs, err := s.sourceDirs(ctx, root, outRoot)
	if err != nil {
		return res, err
	}
	cfgJSON, _ := json.Marshal(snap)
	cfg, hash := string(cfgJSON), snap.Hash()
	queued, err := s.st.CountQueuedJobs(ctx, c.ID)
	if err != nil {
		return res, err
	}
	// full means the job was refused for the per-user queue limit; done
	// (nil for none) says the node's latest job already did the work.
	enqueue := func(j store.Job, done func(store.Job) bool) (created, full bool, err error) {
		if queued >= int64(s.maxQueued) {
			res.Retry, res.Reason = true, "your queue is full; the rest of the changes are queued when jobs finish"
			return false, true, nil
		}
		j.UserID, j.MaxAttempts, j.ConfigurationJSON, j.ConfigHash = c.ID, snap.MaxAttempts, &cfg, hash
		if done == nil {
			done = func(store.Job) bool { return false }
		}
		got, created, err := s.st.EnqueueJobUnless(ctx, &j, done)
		if err != nil {
			return false, false, err
		}
		if created {
			queued++
			transition(got, fromNone, store.JobQueued, "", "user_id", c.ID, "auto", true)
		} else if got.State == store.JobRunning {
			// It may have read the bytes before this change: look again
			// once it is done.
			res.Retry, res.Reason = true, "a job of this folder was still running"
		}
		return created, false, nil
	}
	for _, d := range dirs {
		changed, affected, read, err := s.dirChanges(ctx, c, snap, d)
		if err != nil {
			return res, err
		}
		complete, created := true, 0
		for i := range changed {
			f := changed[i].node
			id := f.ID
			fp := snap.fingerprint(store.RoleSummary, changed[i].hash)
			ok, full, err := enqueue(store.Job{Kind: JobKind, NodeID: &id, Path: f.Path, OutputPath: d.out},
				func(l store.Job) bool { return doneFor(l, f.Path, d.out, fp, read) })
			if err != nil {
				return res, err
			}
			if ok {
				created++
			}
			if full {
				complete = false
				break
			}
		}
		res.Summaries += created
		if !complete {
			break // the retry queues the rest, then the overview
		}
		// A file whose job an earlier batch queued is not new work: the
		// overview queued with it will include it.
		if created == 0 && !affected {
			continue
		}
		id := d.node.ID
		ok, full, err := enqueue(store.Job{Kind: OverviewJobKind, NodeID: &id, Path: d.node.Path, OutputPath: d.out}, nil)
		if err != nil {
			return res, err
		}
		if ok {
			res.Overviews++
		}
		if full {
			break
		}
	}
	removed, busy, err := s.pruneGone(ctx, c, root, outRoot)
	if err != nil {
		return res, err
	}
	res.Removed = removed
	if busy && !res.Retry {
		res.Retry, res.Reason = true, "jobs still write into the output of a folder that is gone; it is removed when they end"
	}
	return res, nil
}

// sourceDirs lists the folders of the tree kept compiled with their files,
// leaving out generated output and the subtrees of folders kept compiled
// on their own.
func (s *Service) sourceDirs(ctx context.Context, root store.Node, outRoot string) ([]*sourceDir, error) {
	nodes, err := s.st.Subtree(ctx, root)
	if err != nil {
		return nil, err
	}
	var dirIDs []int64
	for _, n := range nodes {
		if n.IsDir() && n.ID != root.ID {
			dirIDs = append(dirIDs, n.ID)
		}
	}
	own, err := s.st.AutoCompiled(ctx, dirIDs)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*sourceDir{}
	var out []*sourceDir
	var skip []string         // path prefixes left out
	for _, n := range nodes { // parents come before their children
		if knowledge.IsGenerated(n) || skipped(skip, n.Path) {
			continue
		}
		if n.IsDir() {
			if own[n.ID] {
				skip = append(skip, n.Path+"/")
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(n.Path, root.Path), "/")
			d := &sourceDir{node: n, out: joinPath(outRoot, rel)}
			if rel == "" {
				d.out = outRoot
			}
			byID[n.ID] = d
			out = append(out, d)
			continue
		}
		if n.ParentID != nil {
			if d, ok := byID[*n.ParentID]; ok {
				d.files = append(d.files, n)
			}
		}
	}
	return out, nil
}

func skipped(prefixes []string, p string) bool {
	for _, s := range prefixes {
		if strings.HasPrefix(p+"/", s) {
			return true
		}
	}
	return false
}

// changedFile is a file to compile and the hash of the bytes it holds.
type changedFile struct {
	node store.Node
	hash string
}

// dirChanges compares a folder's files with their summaries: changed are
// the files to compile; affected says the overview is not built from the
// summaries the folder has now (a file deleted or moved away, a summary
// published after the overview was read). read is when the summaries were
// read, less the clock skew.
func (s *Service) dirChanges(ctx context.Context, c kb.Caller, snap Snapshot, d *sourceDir) (changed []changedFile, affected bool, read time.Time, err error) {
	ids := make([]int64, len(d.files))
	inFolder := make(map[int64]store.Node, len(d.files))
	for i, f := range d.files {
		ids[i], inFolder[f.ID] = f.ID, f
	}
	// A job that finishes after this read published a summary the read
	// did not see: its fingerprint, not the summaries, tells it was done.
	read = time.Now().Add(-clockSkew)
	bodies, err := s.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, false, read, err
	}
	byName := map[string]store.Provenance{}
	var live []store.Node
	outDir, err := s.st.NodeByPath(ctx, c.ID, d.out)
	switch {
	case errors.Is(err, store.ErrNotFound): // nothing compiled here yet
	case err != nil:
		return nil, false, read, err
	default:
		ns, ps, err := s.st.SummariesIn(ctx, outDir.ID)
		if err != nil {
			return nil, false, read, err
		}
		for i, n := range ns {
			switch summaryState(ps[i], n.Name, d.node.Path, inFolder) {
			case summaryLive:
				byName[n.Name] = ps[i]
				live = append(live, n)
			case summaryLeft:
				affected = true
			}
		}
	}
	var todo []changedFile
	for _, f := range d.files {
		raw, ok := bodies[f.ID][store.BodyRaw]
		if !ok {
			continue
		}
		if p, ok := byName[summaryName(f.Name)]; ok && p.Fingerprint == snap.fingerprint(store.RoleSummary, raw.BlobHash) {
			continue
		}
		todo = append(todo, changedFile{f, raw.BlobHash})
	}
	changed, err = s.notDone(ctx, c, snap, todo, d.out, read)
	if err != nil || affected || len(live) == 0 {
		return changed, affected, read, err
	}
	stale, err := s.overviewStale(ctx, c, d.out, live)
	return changed, stale, read, err
}

// overviewStale tells whether the overview of the output folder out was
// built from other summaries, or other bytes of them, than live.
func (s *Service) overviewStale(ctx context.Context, c kb.Caller, out string, live []store.Node) (bool, error) {
	ov, err := s.st.NodeByPath(ctx, c.ID, joinPath(out, OverviewName))
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	p, err := s.st.ProvenanceOf(ctx, ov.ID)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	var refs []sourceRef
	if err := json.Unmarshal([]byte(p.SourcesJSON), &refs); err != nil {
		return true, nil
	}
	built := make(map[string]string, len(refs))
	for _, r := range refs {
		built[r.URI] = r.SHA256
	}
	ids := make([]int64, len(live))
	for i, n := range live {
		ids[i] = n.ID
	}
	bodies, err := s.st.LatestBodies(ctx, ids)
	if err != nil {
		return false, err
	}
	if len(built) != len(live) {
		return true, nil
	}
	for _, n := range live {
		if h, ok := built[kb.NodeURI(c.Username, n.Path, false)]; !ok || h != bodies[n.ID][store.BodyRaw].BlobHash {
			return true, nil
		}
	}
	return false, nil
}

// clockSkew is how far the clocks of replicas may disagree.
const clockSkew = 5 * time.Second

// doneFor tells whether job l already compiled the file now at path, with
// the bytes whose summary fingerprint is fp, into out: it failed on them (compiling them again would fail
// again: the overview lists the file, a retry from the task center or a
// new upload compiles it), or it succeeded after the summaries were read.
func doneFor(l store.Job, path, out, fp string, read time.Time) bool {
	return l.Fingerprint == fp && l.Path == path && l.OutputPath == out && (l.State == store.JobFailed ||
		l.State == store.JobSucceeded && l.FinishedAt != nil && l.FinishedAt.After(read))
}

// notDone leaves out the files whose latest job is doneFor their bytes, in
// one query for the folder; enqueue asks again, file by file.
func (s *Service) notDone(ctx context.Context, c kb.Caller, snap Snapshot, files []changedFile, out string, read time.Time) ([]changedFile, error) {
	if len(files) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(files))
	for i, f := range files {
		ids[i] = f.node.ID
	}
	last, err := s.st.LatestJobs(ctx, c.ID, JobKind, ids)
	if err != nil {
		return nil, err
	}
	keep := files[:0:0]
	for _, f := range files {
		if l, ok := last[f.node.ID]; ok && doneFor(l, f.node.Path, out, snap.fingerprint(store.RoleSummary, f.hash), read) {
			continue
		}
		keep = append(keep, f)
	}
	return keep, nil
}
