package compile

import (
	"context"
	"fmt"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
)

// Budget is the usage limits jobs that call our models are queued and
// started under (usage.Budgets).
type Budget interface {
	// Check refuses when a budget of the user is spent.
	Check(ctx context.Context, userID int64) error
	// Admit lets a job start, holding what it is expected to spend until
	// done; its context counts the job's calls.
	Admit(ctx context.Context, userID int64) (_ context.Context, done func(), _ error)
	// Left is the tokens and cost the user's budgets leave, and the
	// budget_exceeded refusal naming the tightest; nil when none applies.
	Left(ctx context.Context, userID int64) (tokens int64, cost float64, over error)
}

// BudgetCut says a batch was cut to what fits in a budget: Queued of its
// files were queued, LeftOut were not (rejected with budget_exceeded).
type BudgetCut struct {
	Queued   int       `json:"queued"`
	LeftOut  int       `json:"left_out"`
	Scope    string    `json:"scope"`
	Subject  string    `json:"subject"`
	Period   string    `json:"period"`
	ResetsAt time.Time `json:"resets_at"`
}

// budgetRoom is what is left of the user's budgets for a batch's files,
// each estimated at its input by its size (what accounting assumes when a
// provider reports nothing): files fit in order while the left tokens and
// cost last, and the first always does, as the budget is not spent.
type budgetRoom struct {
	tokens int64
	cost   float64
	model  *llm.Model
	over   *apierr.Error // names the budget; nil when none applies
	taken  int
}

func (s *Service) budgetRoom(ctx context.Context, userID int64, model *llm.Model) (*budgetRoom, error) {
	r := &budgetRoom{model: model}
	if s.budget == nil || model == nil {
		return r, nil
	}
	tokens, cost, over := s.budget.Left(ctx, userID)
	if over != nil {
		e, ok := apierr.As(over)
		if !ok || e.Code != apierr.CodeBudgetExceeded {
			return nil, over
		}
		r.over = e
	}
	r.tokens, r.cost = tokens, cost
	return r, nil
}

// take tells whether a file of size bytes fits, counting it when it does.
func (r *budgetRoom) take(size int64) bool {
	if r.over == nil {
		return true
	}
	tokens := int64(llm.EstimateTokens(int(min(size, 1<<40))))
	cost := r.model.InputCost(int(tokens))
	if r.taken > 0 && (tokens > r.tokens || cost > r.cost) {
		return false
	}
	r.taken++
	r.tokens -= tokens
	r.cost -= cost
	return true
}

// cut is the answer's account of a cut batch; nil when nothing was left
// out.
func (r *budgetRoom) cut(queued, leftOut int) *BudgetCut {
	if r.over == nil || leftOut == 0 {
		return nil
	}
	c := &BudgetCut{Queued: queued, LeftOut: leftOut}
	if b, ok := r.over.Details["budget"].(map[string]any); ok {
		c.Scope, _ = b["scope"].(string)
		c.Subject, _ = b["subject"].(string)
		c.Period, _ = b["period"].(string)
	}
	c.ResetsAt, _ = r.over.Details["resets_at"].(time.Time)
	return c
}

// leftOutMessage is the rejection of a file past what the budget leaves.
func (r *budgetRoom) leftOutMessage() string {
	c := r.cut(0, 1)
	who := "everyone's"
	switch c.Scope {
	case "user":
		who = "your"
	case "group":
		who = fmt.Sprintf("the group %s's", c.Subject)
	}
	return fmt.Sprintf("not queued: the files before it use what %s %s model budget leaves; compile it after the budget resets at %s",
		who, map[string]string{"day": "daily", "month": "monthly"}[c.Period], c.ResetsAt.Format(time.RFC3339))
}
