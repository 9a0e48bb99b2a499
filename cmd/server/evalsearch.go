package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/evalsearch"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store"
)

// evalSearchCommand scores the search against a user's known-answer
// questions in each search mode (knowspace eval-search), as the admin API
// POST /admin/eval-search does, on the data directory.
func evalSearchCommand(configPath string, args []string) error {
	fs := flag.NewFlagSet("eval-search", flag.ContinueOnError)
	questionsPath := fs.String("questions", "", "the questions file (- for stdin): "+evalsearch.QuestionsUsage)
	uri := fs.String("uri", "", "the folder searched, e.g. kb://me/docs/ (kb://me/ is --user's own tree)")
	user := fs.String("user", "", "search as this user, seeing what they may read (default: the first admin)")
	modes := fs.String("modes", "", "comma-separated search modes to score (default: every one: "+strings.Join(tools.SearchModes(), ",")+")")
	asJSON := fs.Bool("json", false, "print the report as JSON, as POST /api/v1/admin/eval-search answers it")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: knowspace [--config file] eval-search --questions FILE --uri kb://… [--user NAME] [--modes literal,ranked] [--json]\n\n"+
			"Asks each question below --uri in each search mode, as --user, and prints recall@1, recall@5, recall@10 and MRR@10\n"+
			"per mode (a file is found at rank r when it is the r-th distinct file of the hits) and the median time of one search.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, f := range []struct{ name, value string }{{"questions", *questionsPath}, {"uri", *uri}} {
		if f.value == "" {
			fs.Usage()
			return fmt.Errorf("eval-search: --%s is required", f.name)
		}
	}
	qs, err := readQuestions(*questionsPath)
	if err != nil {
		return err
	}
	var chosen []string
	if *modes != "" {
		chosen = strings.Split(*modes, ",")
	}
	if _, err := evalsearch.CheckModes(chosen); err != nil {
		return cliError("eval-search --modes", err)
	}

	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.Close()
	u, err := evalUser(ctx, a, *user)
	if err != nil {
		return cliError("eval-search --user", err)
	}
	// Figures of the whole index: take what waits for it first, as
	// reindex does, and what waits for the embedding model.
	if err := a.Index.WaitIndexed(ctx); err != nil {
		return err
	}
	if a.Embedder != nil {
		if err := a.Embedder.WaitEmbedded(ctx); err != nil {
			return err
		}
	}
	rep, err := evalsearch.Run(ctx, tools.New(a.Tree), kb.Caller{ID: u.ID, Username: u.Username},
		evalsearch.Request{URI: *uri, Questions: qs, Modes: chosen})
	if err != nil {
		return cliError("eval-search", err)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printEvalReport(os.Stdout, u.Username, rep)
}

// readQuestions reads the questions file, or stdin for "-".
func readQuestions(path string) ([]evalsearch.Question, error) {
	r := io.Reader(os.Stdin)
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("eval-search --questions: %w", err)
		}
		defer f.Close()
		r = f
	}
	qs, err := evalsearch.ParseQuestions(r)
	if err != nil {
		return nil, cliError(path, err)
	}
	return qs, nil
}

// evalUser is the named user, or the first admin account that is not
// disabled.
func evalUser(ctx context.Context, a *app.Core, name string) (store.User, error) {
	if name != "" {
		return a.Auth.UserByName(ctx, name)
	}
	us, err := a.Auth.ListUsers(ctx)
	if err != nil {
		return store.User{}, err
	}
	for _, u := range us {
		if u.Role == store.RoleAdmin && !u.Disabled {
			return u, nil
		}
	}
	return store.User{}, errors.New("no administrator account; name the user with --user")
}

// cliError words an API error as its message alone, after what it is
// about: the code is for programs, the operator reads the message.
func cliError(about string, err error) error {
	if e, ok := apierr.As(err); ok && e.Status < 500 {
		return fmt.Errorf("%s: %s", about, e.Message)
	}
	return err
}

// printEvalReport writes the report as a table, one mode a row, then the
// refusals, unknown answers and notes that qualify the figures.
func printEvalReport(out io.Writer, username string, rep evalsearch.Report) error {
	fmt.Fprintf(out, "%d questions below %s, searched as %s\n\n", rep.Questions, rep.URI, username)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "mode\tquestions\trecall@1\trecall@5\trecall@10\tMRR@10\tmedian ms\trefused")
	for _, m := range rep.Modes {
		if m.Unavailable != "" {
			// The last cell of a line is no column: a long reason widens none.
			fmt.Fprintf(w, "%s\tunavailable: %s\n", m.Mode, m.Unavailable)
			continue
		}
		fmt.Fprintf(w, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t%d\n", m.Mode, m.Questions,
			m.RecallAt1, m.RecallAt5, m.RecallAt10, m.MRRAt10, m.MedianLatencyMS, m.Failed)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, m := range rep.Modes {
		if m.Failed > 0 {
			fmt.Fprintf(out, "\n%s: the search refused %d questions, counted as not found; the first: %s\n", m.Mode, m.Failed, m.Failure)
		}
	}
	if len(rep.UnknownAnswers) > 0 {
		fmt.Fprintln(out, "\nanswers that name no file the search can find (a question left with none is not scored):")
		for _, u := range rep.UnknownAnswers {
			fmt.Fprintf(out, "  line %d: %s: %s\n", u.Line, u.Answer, u.Reason)
		}
	}
	if rep.Waiting {
		fmt.Fprintln(out, "\nnote: some files were still waiting for their text, index or vectors, so no search could find them yet; run again once they are")
	}
	return nil
}
