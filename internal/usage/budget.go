package usage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Budgets are limits on model usage: for everyone together, a user, or a
// group's members together, per UTC day or month, in tokens or cost. Work
// is admitted under them before it calls a model (Admit); work already
// running finishes, and what it is expected to spend is held against the
// budget meanwhile, so replicas racing for its rest cannot all win it.
type Budgets struct {
	st    *store.Store
	meter *Meter
	now   func() time.Time
}

// NewBudgets checks budgets against meter's usage.
func NewBudgets(st *store.Store, meter *Meter) *Budgets {
	return &Budgets{st: st, meter: meter, now: time.Now}
}

// Status is a budget with what its period has used so far.
type Status struct {
	ID         int64     `json:"id"`
	Scope      string    `json:"scope"`
	SubjectID  int64     `json:"subject_id"`
	Subject    string    `json:"subject"` // the user's or group's name; "" for global
	Period     string    `json:"period"`
	MaxTokens  int64     `json:"max_tokens"`
	MaxCost    float64   `json:"max_cost"`
	UsedTokens int64     `json:"used_tokens"`
	UsedCost   float64   `json:"used_cost"`
	ResetsAt   time.Time `json:"resets_at"`
	// Fraction is the larger of tokens and cost used over their limits.
	Fraction float64 `json:"fraction"`
}

// Spent tells whether the period's limit is reached.
func (s Status) Spent() bool { return s.Fraction >= 1 }

// periodOf is the first day and the reset of the period now falls in.
func periodOf(period string, now time.Time) (from string, resets time.Time) {
	now = now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if period == store.PeriodMonth {
		first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		return first.Format(time.DateOnly), first.AddDate(0, 1, 0)
	}
	return day.Format(time.DateOnly), day.AddDate(0, 0, 1)
}

// For is every budget that applies to the user, with its usage.
func (b *Budgets) For(ctx context.Context, userID int64) ([]Status, error) {
	mine, err := b.applicable(ctx, userID)
	if err != nil {
		return nil, err
	}
	return b.status(ctx, mine)
}

// applicable is every budget that counts the user's usage.
func (b *Budgets) applicable(ctx context.Context, userID int64) ([]store.Budget, error) {
	all, err := b.st.Budgets(ctx)
	if err != nil {
		return nil, apierr.Internal("read budgets", err)
	}
	if len(all) == 0 {
		return nil, nil // every turn asks; most servers set no budget
	}
	groups, err := b.st.GroupsOf(ctx, userID)
	if err != nil {
		return nil, apierr.Internal("read budgets: groups", err)
	}
	in := map[int64]string{}
	for _, g := range groups {
		in[g.ID] = g.Name
	}
	var mine []store.Budget
	for _, bg := range all {
		if bg.Scope == store.BudgetGlobal || bg.Scope == store.BudgetUser && bg.SubjectID == userID || bg.Scope == store.BudgetGroup && in[bg.SubjectID] != "" {
			mine = append(mine, bg)
		}
	}
	return mine, nil
}

// All is every budget with its usage, for the admins.
func (b *Budgets) All(ctx context.Context) ([]Status, error) {
	all, err := b.st.Budgets(ctx)
	if err != nil {
		return nil, apierr.Internal("read budgets", err)
	}
	return b.status(ctx, all)
}

func (b *Budgets) status(ctx context.Context, budgets []store.Budget) ([]Status, error) {
	out := []Status{}
	if len(budgets) == 0 {
		return out, nil
	}
	b.meter.Flush(ctx)
	now := b.now()
	for _, bg := range budgets {
		st, err := statusOf(ctx, b.st, bg, now)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// statusOf is the budget with the usage its period has recorded in st.
func statusOf(ctx context.Context, st *store.Store, bg store.Budget, now time.Time) (Status, error) {
	from, resets := periodOf(bg.Period, now)
	f := store.UsageFilter{From: from}
	s := Status{ID: bg.ID, Scope: bg.Scope, SubjectID: bg.SubjectID, Period: bg.Period, MaxTokens: bg.MaxTokens, MaxCost: bg.MaxCost, ResetsAt: resets}
	switch bg.Scope {
	case store.BudgetUser:
		f.UserIDs = []int64{bg.SubjectID}
		names, err := st.Usernames(ctx, f.UserIDs)
		if err != nil {
			return s, apierr.Internal("read budgets: user", err)
		}
		s.Subject = names[bg.SubjectID]
	case store.BudgetGroup:
		g, err := st.GroupByID(ctx, bg.SubjectID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return s, apierr.Internal("read budgets: group", err)
		}
		s.Subject = g.Name
		members, err := st.MembersOf(ctx, []int64{bg.SubjectID})
		if err != nil {
			return s, apierr.Internal("read budgets: members", err)
		}
		f.UserIDs = []int64{}
		for _, m := range members[bg.SubjectID] {
			f.UserIDs = append(f.UserIDs, m.ID)
		}
	}
	sum, err := st.SumUsage(ctx, f)
	if err != nil {
		return s, apierr.Internal("read budgets: usage", err)
	}
	s.UsedTokens, s.UsedCost = sum.Tokens, sum.Cost
	if bg.MaxTokens > 0 {
		s.Fraction = float64(sum.Tokens) / float64(bg.MaxTokens)
	}
	if bg.MaxCost > 0 {
		s.Fraction = max(s.Fraction, sum.Cost/bg.MaxCost)
	}
	return s, nil
}

// Check refuses with 429 budget_exceeded when a budget that applies to the
// user is spent, naming it, what it used and when it resets.
func (b *Budgets) Check(ctx context.Context, userID int64) error {
	if b == nil {
		return nil
	}
	statuses, err := b.For(ctx, userID)
	if err != nil {
		return err
	}
	for _, s := range statuses {
		if s.Spent() {
			return refusal(s, false)
		}
	}
	return nil
}

// refusal is the answer to work a budget cannot admit: spent, or (inFlight)
// its rest reserved by work running now, which a retry may find free.
func refusal(s Status, inFlight bool) error {
	who := "everyone's"
	switch s.Scope {
	case store.BudgetUser:
		who = "your"
	case store.BudgetGroup:
		who = fmt.Sprintf("the group %s's", s.Subject)
	}
	period := map[string]string{store.PeriodDay: "daily", store.PeriodMonth: "monthly"}[s.Period]
	var e *apierr.Error
	if inFlight {
		e = apierr.New(429, apierr.CodeBudgetExceeded, "%s %s model budget is nearly spent (%s) and what is left is reserved by work running now; try again when it ends, or after %s",
			who, period, usedText(s), s.ResetsAt.Format(time.RFC3339))
	} else {
		e = apierr.New(429, apierr.CodeBudgetExceeded, "%s %s model budget is spent (%s); it resets at %s",
			who, period, usedText(s), s.ResetsAt.Format(time.RFC3339))
	}
	e = e.WithDetail("budget", map[string]any{"id": s.ID, "scope": s.Scope, "subject": s.Subject, "period": s.Period}).
		WithDetail("used_tokens", s.UsedTokens).WithDetail("max_tokens", s.MaxTokens).
		WithDetail("used_cost", s.UsedCost).WithDetail("max_cost", s.MaxCost).
		WithDetail("resets_at", s.ResetsAt)
	e.RetryAfter = time.Until(s.ResetsAt)
	if inFlight {
		e = e.WithDetail("in_flight", true)
		e.RetryAfter = inFlightRetry
	}
	return e
}

func usedText(s Status) string {
	if s.MaxTokens > 0 && (s.MaxCost == 0 || float64(s.UsedTokens)/float64(s.MaxTokens) >= s.UsedCost/s.MaxCost) {
		return fmt.Sprintf("%d of %d tokens", s.UsedTokens, s.MaxTokens)
	}
	return fmt.Sprintf("%.4g of %.4g in cost", s.UsedCost, s.MaxCost)
}

// Put makes or replaces a budget after checking it.
func (b *Budgets) Put(ctx context.Context, bg store.Budget) (store.Budget, error) {
	switch {
	case bg.Scope != store.BudgetGlobal && bg.Scope != store.BudgetUser && bg.Scope != store.BudgetGroup:
		return bg, apierr.BadRequest(apierr.CodeInvalidBudget, "scope must be global, user or group")
	case bg.Scope == store.BudgetGlobal && bg.SubjectID != 0:
		return bg, apierr.BadRequest(apierr.CodeInvalidBudget, "a global budget names no user or group")
	case bg.Scope != store.BudgetGlobal && bg.SubjectID <= 0:
		return bg, apierr.BadRequest(apierr.CodeInvalidBudget, "a %s budget needs its %s", bg.Scope, bg.Scope)
	case bg.Period != store.PeriodDay && bg.Period != store.PeriodMonth:
		return bg, apierr.BadRequest(apierr.CodeInvalidBudget, "period must be day or month")
	case bg.MaxTokens < 0 || bg.MaxCost < 0 || bg.MaxTokens == 0 && bg.MaxCost == 0:
		return bg, apierr.BadRequest(apierr.CodeInvalidBudget, "give max_tokens or max_cost, positive")
	}
	now := b.now().UTC()
	bg.ID, bg.CreatedAt, bg.UpdatedAt = 0, now, now
	if err := b.st.PutBudget(ctx, &bg); err != nil {
		return bg, apierr.Internal("store budget", err)
	}
	return bg, nil
}

// Delete removes a budget.
func (b *Budgets) Delete(ctx context.Context, id int64) error {
	err := b.st.DeleteBudget(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound(apierr.CodeBudgetNotFound, "no budget with id %d", id)
	}
	if err != nil {
		return apierr.Internal("delete budget", err)
	}
	return nil
}
