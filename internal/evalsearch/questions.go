package evalsearch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// Limits of one evaluation: how many questions, how many answers each,
// and how long a line of a questions file may be.
const (
	MaxQuestions   = 1000
	MaxAnswers     = 100
	maxLineBytes   = 1 << 20
	QuestionsUsage = `JSON Lines, one question a line: {"question": "…", "answers": ["kb://me/docs/a.md", "docs/b.md"]}; ` +
		`answers are the files that answer it, as kb:// URIs or as paths below uri; other fields are ignored and blank lines skipped`
)

// Question is one known-answer question: what a user would ask, and the
// files that answer it (kb:// URIs, or paths below the evaluated uri).
type Question struct {
	Question string   `json:"question"`
	Answers  []string `json:"answers"`
	// Line is where the question stands: its line in a questions file, or
	// its place in a request's list, from 1.
	Line int `json:"-"`
}

// invalid refuses the questions; line, when above 0, is where the fault is.
func invalid(line int, format string, args ...any) error {
	e := apierr.BadRequest(apierr.CodeInvalidQuestions, format, args...)
	if line > 0 {
		e = e.WithDetail("line", line)
	}
	return e
}

// ParseQuestions reads a questions file (QuestionsUsage). A refusal is
// invalid_questions, naming the line at fault.
func ParseQuestions(r io.Reader) ([]Question, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var out []Question
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if len(out) == MaxQuestions {
			return nil, invalid(line, "more than %d questions; split the file", MaxQuestions)
		}
		q := Question{Line: line}
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&q); err != nil {
			return nil, invalid(line, "line %d: not a JSON object {\"question\": \"…\", \"answers\": [\"…\"]}: %s", line, strings.TrimPrefix(err.Error(), "json: "))
		}
		if dec.More() {
			return nil, invalid(line, "line %d: more than one JSON value; put one question on each line", line)
		}
		if msg := q.problem(); msg != "" {
			return nil, invalid(line, "line %d: %s", line, msg)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, invalid(line+1, "line %d is longer than %d bytes", line+1, maxLineBytes)
		}
		return nil, fmt.Errorf("read questions: %w", err)
	}
	if len(out) == 0 {
		return nil, invalid(0, "no questions: want %s", QuestionsUsage)
	}
	return out, nil
}

// CheckQuestions checks the questions of a request by the rules of a
// questions file and numbers them (Line) by their place in the list.
func CheckQuestions(qs []Question) error {
	if len(qs) == 0 {
		return invalid(0, "no questions: send questions as [{\"question\": \"…\", \"answers\": [\"…\"]}]")
	}
	if len(qs) > MaxQuestions {
		return invalid(MaxQuestions+1, "more than %d questions; evaluate them in parts", MaxQuestions)
	}
	for i := range qs {
		qs[i].Line = i + 1
		if msg := qs[i].problem(); msg != "" {
			return invalid(i+1, "question %d: %s", i+1, msg)
		}
	}
	return nil
}

// problem says what is wrong with a question, "" when nothing is.
func (q Question) problem() string {
	if strings.TrimSpace(q.Question) == "" {
		return "question is empty"
	}
	if n := utf8.RuneCountInString(q.Question); n > tools.MaxSearchQueryChars {
		return fmt.Sprintf("question is %d characters; a search takes at most %d", n, tools.MaxSearchQueryChars)
	}
	if len(q.Answers) == 0 {
		return "answers is empty: name at least one file that answers the question"
	}
	if len(q.Answers) > MaxAnswers {
		return fmt.Sprintf("more than %d answers", MaxAnswers)
	}
	for i, a := range q.Answers {
		if strings.TrimSpace(a) == "" {
			return fmt.Sprintf("answers[%d] is empty", i)
		}
	}
	return ""
}
