package usage

import (
	"context"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Row is the usage of one day, user, model and purpose. EstimatedCalls of
// Calls were counted by us because their provider reported no usage.
type Row struct {
	Day            string  `json:"day"`
	UserID         int64   `json:"user_id"`
	Username       string  `json:"username"`
	Model          string  `json:"model"`
	Purpose        string  `json:"purpose"`
	Calls          int64   `json:"calls"`
	EstimatedCalls int64   `json:"estimated_calls"`
	InputTokens    int64   `json:"input_tokens"`
	OutputTokens   int64   `json:"output_tokens"`
	Cost           float64 `json:"cost"`
}

// Range is the days of a report, inclusive.
type Range struct{ From, To string }

// DefaultDays is how far back a report reaches when it names no start.
const DefaultDays = 30

// ParseRange reads from and to (YYYY-MM-DD, UTC); empty to is today, empty
// from DefaultDays before it.
func ParseRange(from, to string, now time.Time) (Range, error) {
	end := now.UTC()
	if to != "" {
		t, err := time.Parse(time.DateOnly, to)
		if err != nil {
			return Range{}, apierr.BadRequest(apierr.CodeInvalidRequest, "to: %q is not a date (YYYY-MM-DD)", to).WithDetail("field", "to")
		}
		end = t
	}
	start := end.AddDate(0, 0, -(DefaultDays - 1))
	if from != "" {
		t, err := time.Parse(time.DateOnly, from)
		if err != nil {
			return Range{}, apierr.BadRequest(apierr.CodeInvalidRequest, "from: %q is not a date (YYYY-MM-DD)", from).WithDetail("field", "from")
		}
		start = t
	}
	if start.After(end) {
		return Range{}, apierr.BadRequest(apierr.CodeInvalidRequest, "from is after to").WithDetail("field", "from")
	}
	return Range{From: start.Format(time.DateOnly), To: end.Format(time.DateOnly)}, nil
}

// Report is the usage of the range for users (nil: everyone), one row per
// day, user, model and purpose, provider counts and estimates together.
func (m *Meter) Report(ctx context.Context, r Range, users []int64) ([]Row, error) {
	m.Flush(ctx)
	days, err := m.st.UsageDays(ctx, store.UsageFilter{From: r.From, To: r.To, UserIDs: users})
	if err != nil {
		return nil, apierr.Internal("usage report", err)
	}
	type key struct {
		day, model, purpose string
		user                int64
	}
	index := map[key]int{}
	out := []Row{}
	var ids []int64
	for _, d := range days {
		k := key{d.Day, d.Model, d.Purpose, d.UserID}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, Row{Day: d.Day, UserID: d.UserID, Model: d.Model, Purpose: d.Purpose})
			ids = append(ids, d.UserID)
		}
		r := &out[i]
		r.Calls += d.Calls
		if d.Estimated {
			r.EstimatedCalls += d.Calls
		}
		r.InputTokens += d.InputTokens
		r.OutputTokens += d.OutputTokens
		r.Cost += d.Cost
	}
	names, err := m.st.Usernames(ctx, ids)
	if err != nil {
		return nil, apierr.Internal("usage report: user names", err)
	}
	for i := range out {
		out[i].Username = names[out[i].UserID]
	}
	return out, nil
}
