package evalsearch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/evalsearch"
)

func TestParseQuestions(t *testing.T) {
	t.Parallel()
	in := `{"question": "how do I read compressed files?", "answers": ["kb://me/docs/gzip.md"]}

{"id": "q2", "style": "keywords", "question": "tar archive", "answers": ["tar.md", "docs/zip.md"]}
`
	qs, err := evalsearch.ParseQuestions(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []evalsearch.Question{
		{Question: "how do I read compressed files?", Answers: []string{"kb://me/docs/gzip.md"}, Line: 1},
		{Question: "tar archive", Answers: []string{"tar.md", "docs/zip.md"}, Line: 3},
	}
	if fmt.Sprint(qs) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", qs, want)
	}
}

// TestParseQuestionsRefuses: every refusal is invalid_questions, names the
// line at fault and says what is wrong with it.
func TestParseQuestionsRefuses(t *testing.T) {
	t.Parallel()
	good := `{"question": "q", "answers": ["a.md"]}` + "\n"
	for _, c := range []struct {
		name, in string
		line     int
		says     string
	}{
		{"empty file", "", 0, "no questions"},
		{"blank lines only", "\n  \n", 0, "no questions"},
		{"not JSON", good + "{\"question\": \"q\", \"answers\": [\n", 2, "line 2: not a JSON object"},
		{"an array", good + good + `["q", "a.md"]` + "\n", 3, "line 3: not a JSON object"},
		{"answers of the wrong type", `{"question": "q", "answers": "a.md"}`, 1, "line 1: not a JSON object"},
		{"two objects on a line", good[:len(good)-1] + good, 1, "line 1: more than one JSON value"},
		{"no question", `{"answers": ["a.md"]}`, 1, "line 1: question is empty"},
		{"blank question", `{"question": "  ", "answers": ["a.md"]}`, 1, "line 1: question is empty"},
		{"no answers", good + `{"question": "q"}`, 2, "line 2: answers is empty"},
		{"a blank answer", `{"question": "q", "answers": ["a.md", ""]}`, 1, "line 1: answers[1] is empty"},
		{"a question too long", `{"question": "` + strings.Repeat("é", 201) + `", "answers": ["a.md"]}`, 1, "line 1: question is 201 characters"},
		{"too many answers", `{"question": "q", "answers": [` + strings.Repeat(`"a.md",`, evalsearch.MaxAnswers) + `"a.md"]}`, 1, "line 1: more than 100 answers"},
		{"too many questions", strings.Repeat(good, evalsearch.MaxQuestions+1), evalsearch.MaxQuestions + 1, "more than 1000 questions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := evalsearch.ParseQuestions(strings.NewReader(c.in))
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.CodeInvalidQuestions || e.Status != 400 {
				t.Fatalf("want 400 invalid_questions, got %v", err)
			}
			if !strings.Contains(e.Message, c.says) {
				t.Errorf("message %q does not say %q", e.Message, c.says)
			}
			if line, _ := e.Details["line"].(int); line != c.line {
				t.Errorf("error.line = %v, want %d", e.Details["line"], c.line)
			}
		})
	}
}

// TestCheckQuestions: the questions of an API request are checked by the
// same rules, numbered by their place in the list.
func TestCheckQuestions(t *testing.T) {
	t.Parallel()
	qs := []evalsearch.Question{{Question: "q", Answers: []string{"a.md"}}, {Question: "q2"}}
	err := evalsearch.CheckQuestions(qs)
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.CodeInvalidQuestions || !strings.Contains(e.Message, "question 2: answers is empty") || e.Details["line"] != 2 {
		t.Fatalf("got %v (%+v)", err, e)
	}
	if err := evalsearch.CheckQuestions(nil); err == nil || !strings.Contains(err.Error(), "no questions") {
		t.Fatalf("no questions: %v", err)
	}
	qs = qs[:1]
	if err := evalsearch.CheckQuestions(qs); err != nil || qs[0].Line != 1 {
		t.Fatalf("good questions: %v, line %d", err, qs[0].Line)
	}
}
