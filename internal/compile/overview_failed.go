package compile

import (
	"context"
	"fmt"
	"path"
	"strings"
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

// failedSection is the part of an overview that the model does not write:
// which files could not be read, and why.
func failedSection(files []failedFile) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n## Files not compiled\n\n")
	for _, f := range files {
		fmt.Fprintf(&b, "- `%s` — %s: %s\n", f.name, f.code, oneLine(f.message))
	}
	return strings.TrimRight(b.String(), "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
