package store

import (
	"context"
	"time"
)

// BudgetHold is what a turn or job admitted under a budget is expected to
// spend, counted against it until settled (see migration 00035).
type BudgetHold struct {
	ID        int64 `gorm:"primaryKey"`
	BudgetID  int64
	Tokens    int64
	Cost      float64
	Crossing  bool
	Settled   bool
	CreatedAt time.Time
	ExpiresAt time.Time
}

// LockBudgets makes admissions under the budgets wait for each other until
// the transaction ends: on PostgreSQL by locking their rows in id order;
// SQLite's transactions take the write lock as they begin.
func (s *Store) LockBudgets(ctx context.Context, ids []int64) error {
	if s.dialect != DialectPostgres || len(ids) == 0 {
		return nil
	}
	var locked []int64
	return translate(s.db.WithContext(ctx).Raw("SELECT id FROM budgets WHERE id IN ? ORDER BY id FOR UPDATE", ids).Scan(&locked).Error)
}

// HoldsInFlight is the budget's live holds: not settled, not expired.
func (s *Store) HoldsInFlight(ctx context.Context, budgetID int64, at time.Time) ([]BudgetHold, error) {
	var out []BudgetHold
	err := s.db.WithContext(ctx).Where("budget_id = ? AND settled = ? AND expires_at > ?", budgetID, false, at).Find(&out).Error
	return out, translate(err)
}

// settledSample is how many of a budget's latest settled holds its
// estimates are made from.
const settledSample = 50

// SettledMean is the mean spend of the budget's latest settled holds; n is
// how many there were (0: nothing to estimate from).
func (s *Store) SettledMean(ctx context.Context, budgetID int64) (tokens float64, cost float64, n int64, err error) {
	var row struct {
		Tokens float64
		Cost   float64
		N      int64
	}
	err = s.db.WithContext(ctx).Raw(`SELECT COALESCE(AVG(tokens), 0) AS tokens, COALESCE(AVG(cost), 0) AS cost, COUNT(*) AS n
FROM (SELECT tokens, cost FROM budget_holds WHERE budget_id = ? AND settled = ? ORDER BY id DESC LIMIT ?) latest`,
		budgetID, true, settledSample).Scan(&row).Error
	return row.Tokens, row.Cost, row.N, translate(err)
}

// AddBudgetHold stores a new hold.
func (s *Store) AddBudgetHold(ctx context.Context, h *BudgetHold) error {
	return translate(s.db.WithContext(ctx).Create(h).Error)
}

// SettleBudgetHolds marks the holds settled with what their work spent.
func (s *Store) SettleBudgetHolds(ctx context.Context, ids []int64, tokens int64, cost float64) error {
	if len(ids) == 0 {
		return nil
	}
	return translate(s.db.WithContext(ctx).Model(&BudgetHold{}).Where("id IN ?", ids).
		Updates(map[string]any{"settled": true, "tokens": tokens, "cost": cost}).Error)
}

// PruneBudgetHolds deletes the budget's holds no estimate reads any more:
// settled ones past the sample and live ones that expired.
func (s *Store) PruneBudgetHolds(ctx context.Context, budgetID int64, at time.Time) error {
	db := s.db.WithContext(ctx)
	if err := db.Where("budget_id = ? AND settled = ? AND expires_at <= ?", budgetID, false, at).Delete(&BudgetHold{}).Error; err != nil {
		return translate(err)
	}
	return translate(db.Exec(`DELETE FROM budget_holds WHERE budget_id = ? AND settled = ? AND id < (
SELECT COALESCE(MIN(id), 0) FROM (SELECT id FROM budget_holds WHERE budget_id = ? AND settled = ? ORDER BY id DESC LIMIT ?) latest)`,
		budgetID, true, budgetID, true, settledSample).Error)
}
