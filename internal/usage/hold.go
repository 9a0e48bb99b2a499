package usage

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// HoldTTL is how long a hold counts when its work never settles it (its
// replica stopped): past it the budget forgets the hold.
const HoldTTL = time.Hour

// inFlightRetry is when a refusal for a rest reserved by running work
// suggests trying again: about one turn's length.
const inFlightRetry = 10 * time.Second

// Admit lets work of the user start under every budget that applies, or
// refuses it with 429 budget_exceeded. Admitted work holds, against each
// budget, the mean of what the budget's recent work spent, and
// the admissions of every replica count the holds of all: work is
// admitted while it fits beside what is recorded and held. When it does
// not fit but the budget is not spent, one piece of work at a time may run
// into the rest, so the budget is overspent by at most that one (while
// work spends about what its budget's recent work did); with nothing yet
// to estimate from, work runs one at a time. The returned context counts
// the work's calls; done settles the holds with them and must be called
// once when the work ends.
func (b *Budgets) Admit(ctx context.Context, userID int64) (_ context.Context, done func(), _ error) {
	if b == nil {
		return ctx, func() {}, nil
	}
	mine, err := b.applicable(ctx, userID)
	if err != nil || len(mine) == 0 {
		return ctx, func() {}, err
	}
	// What this replica's finished calls spent is in the database before
	// the budgets are read.
	b.meter.Flush(ctx)
	now := b.now()
	ids := make([]int64, len(mine))
	for i, bg := range mine {
		ids[i] = bg.ID
	}
	var held []int64
	err = b.st.InTx(ctx, func(tx *store.Store) error {
		held = held[:0]
		if err := tx.LockBudgets(ctx, ids); err != nil {
			return apierr.Internal("lock budgets", err)
		}
		for _, bg := range mine {
			h, err := admitUnder(ctx, tx, bg, now)
			if err != nil {
				return err
			}
			if err := tx.AddBudgetHold(ctx, &h); err != nil {
				return apierr.Internal("hold budget", err)
			}
			held = append(held, h.ID)
		}
		return nil
	})
	if err != nil {
		return ctx, func() {}, err
	}
	tally := &llm.Tally{}
	return llm.WithTally(ctx, tally), func() { b.settle(context.WithoutCancel(ctx), mine, held, tally) }, nil
}

// admitUnder is the hold work may take under one budget, or its refusal.
func admitUnder(ctx context.Context, tx *store.Store, bg store.Budget, now time.Time) (store.BudgetHold, error) {
	// Holds before usage: a hold settled after this read had its usage
	// written before it settled, so it is counted at least once.
	live, err := tx.HoldsInFlight(ctx, bg.ID, now)
	if err != nil {
		return store.BudgetHold{}, apierr.Internal("read budget holds", err)
	}
	st, err := statusOf(ctx, tx, bg, now)
	if err != nil {
		return store.BudgetHold{}, err
	}
	if st.Spent() {
		return store.BudgetHold{}, refusal(st, false)
	}
	var heldTokens int64
	var heldCost float64
	crossing := false
	for _, h := range live {
		heldTokens += h.Tokens
		heldCost += h.Cost
		crossing = crossing || h.Crossing
	}
	if reaches(bg, st.UsedTokens+heldTokens, st.UsedCost+heldCost) {
		return store.BudgetHold{}, refusal(st, true)
	}
	meanTokens, meanCost, n, err := tx.SettledMean(ctx, bg.ID)
	if err != nil {
		return store.BudgetHold{}, apierr.Internal("read budget holds", err)
	}
	h := store.BudgetHold{BudgetID: bg.ID, Tokens: int64(math.Ceil(meanTokens)), Cost: meanCost, CreatedAt: now, ExpiresAt: now.Add(HoldTTL)}
	fits := n > 0 && !exceeds(bg, st.UsedTokens+heldTokens+h.Tokens, st.UsedCost+heldCost+h.Cost)
	if !fits {
		if crossing {
			return store.BudgetHold{}, refusal(st, true)
		}
		h.Crossing = true
	}
	return h, nil
}

// reaches tells whether tokens or cost reach the budget's limit.
func reaches(bg store.Budget, tokens int64, cost float64) bool {
	return bg.MaxTokens > 0 && tokens >= bg.MaxTokens || bg.MaxCost > 0 && cost >= bg.MaxCost
}

// exceeds tells whether tokens or cost pass the budget's limit.
func exceeds(bg store.Budget, tokens int64, cost float64) bool {
	return bg.MaxTokens > 0 && tokens > bg.MaxTokens || bg.MaxCost > 0 && cost > bg.MaxCost
}

// settle writes what the work's calls spent, then marks its holds settled
// with it: in that order, an admission never sees neither.
func (b *Budgets) settle(ctx context.Context, budgets []store.Budget, held []int64, tally *llm.Tally) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	b.meter.Flush(ctx)
	tokens, cost := tally.Spent()
	if err := b.st.SettleBudgetHolds(ctx, held, tokens, cost); err != nil {
		// The holds count until HoldTTL: the budget is the stricter meanwhile.
		slog.Warn("settle budget holds", "holds", held, "err", err)
		return
	}
	now := b.now()
	for _, bg := range budgets {
		if err := b.st.PruneBudgetHolds(ctx, bg.ID, now); err != nil {
			slog.Warn("prune budget holds", "budget", bg.ID, "err", err)
		}
	}
}

// Left is what the budgets of the user leave before they are spent,
// counting what running work holds: the fewest tokens and the least cost
// any leaves (math.MaxInt64 and +Inf where none limits), and over, the
// refusal that names the budget leaving the least, for work past what is
// left; over is nil when no budget applies, and any other error is a
// failure to read them.
func (b *Budgets) Left(ctx context.Context, userID int64) (tokens int64, cost float64, over error) {
	tokens, cost = math.MaxInt64, math.Inf(1)
	if b == nil {
		return tokens, cost, nil
	}
	mine, err := b.applicable(ctx, userID)
	if err != nil || len(mine) == 0 {
		return tokens, cost, err
	}
	b.meter.Flush(ctx)
	now := b.now()
	var tightest *Status
	tightestLeft := math.Inf(1)
	for _, bg := range mine {
		live, err := b.st.HoldsInFlight(ctx, bg.ID, now)
		if err != nil {
			return 0, 0, apierr.Internal("read budget holds", err)
		}
		st, err := statusOf(ctx, b.st, bg, now)
		if err != nil {
			return 0, 0, err
		}
		usedTokens, usedCost := st.UsedTokens, st.UsedCost
		for _, h := range live {
			usedTokens += h.Tokens
			usedCost += h.Cost
		}
		share := math.Inf(1) // the fraction of the limit left
		if bg.MaxTokens > 0 {
			tokens = min(tokens, max(0, bg.MaxTokens-usedTokens))
			share = float64(bg.MaxTokens-usedTokens) / float64(bg.MaxTokens)
		}
		if bg.MaxCost > 0 {
			cost = min(cost, max(0, bg.MaxCost-usedCost))
			share = min(share, (bg.MaxCost-usedCost)/bg.MaxCost)
		}
		if tightest == nil || share < tightestLeft {
			tightest, tightestLeft = &st, share
		}
	}
	return tokens, cost, refusal(*tightest, false)
}
