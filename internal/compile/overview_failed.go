package compile

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// failedFile is a file of a folder that was asked for and yielded no text.
type failedFile struct {
	name, code, message string
}

// failedFiles lists the files whose latest compile into this job's output
// folder failed, this job's own failure included.
func (r *jobRun) failedFiles(ctx context.Context) ([]failedFile, error) {
	jobs, err := r.s.st.FailedForOutput(ctx, r.caller.ID, r.job.OutputPath, r.job.ID)
	if err != nil {
		return nil, err
	}
	var out []failedFile
	for _, j := range jobs {
		out = append(out, failedFile{name: path.Base(j.Path), code: j.ErrorCode, message: j.ErrorMessage})
	}
	if r.failure != nil {
		out = append(out, failedFile{name: path.Base(r.job.Path), code: r.failure.Code, message: r.failure.Message})
	}
	return out, nil
}

// noteFailures rewrites the failed-files section of the output folder's
// overview, if there is one, keeping its provenance: the next overview the
// model writes lists the failures too.
func (r *jobRun) noteFailures(ctx context.Context) error {
	p := joinPath(r.job.OutputPath, OverviewName)
	n, err := r.s.st.NodeByPath(ctx, r.caller.ID, p)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	prov, err := r.s.st.ProvenanceOf(ctx, n.ID)
	if err != nil {
		return err
	}
	text, err := r.s.tree.FileText(ctx, n, maxSummaryBytes)
	if err != nil {
		return err
	}
	failed, err := r.failedFiles(ctx)
	if err != nil {
		return err
	}
	text, _, _ = strings.Cut(strings.TrimRight(text, "\n"), failedHeading)
	_, err = r.s.tree.Publish(ctx, r.caller, r.job.OutputPath, []knowledge.GeneratedFile{{
		Name: OverviewName, Text: strings.TrimRight(text, "\n") + failedSection(failed) + "\n", Provenance: prov,
	}}, r.hold(ctx))
	return err
}

const failedHeading = "\n\n## Files not compiled\n\n"

// failedSection is the part of an overview that the model does not write:
// which files could not be read, and why.
func failedSection(files []failedFile) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(failedHeading)
	for _, f := range files {
		fmt.Fprintf(&b, "- `%s` — %s: %s\n", f.name, f.code, oneLine(f.message))
	}
	return strings.TrimRight(b.String(), "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
