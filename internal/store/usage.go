package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// UsageDay is the model usage of one user on one day (UTC, "2006-01-02")
// with one model for one purpose; Estimated rows count calls whose
// provider reported no usage.
type UsageDay struct {
	Day          string `gorm:"primaryKey"`
	UserID       int64  `gorm:"primaryKey"`
	Model        string `gorm:"primaryKey"`
	Purpose      string `gorm:"primaryKey"`
	Estimated    bool   `gorm:"primaryKey"`
	Calls        int64
	InputTokens  int64
	OutputTokens int64
	Cost         float64
}

// AddUsage adds each row's counts to the day's row, making it when new.
func (s *Store) AddUsage(ctx context.Context, rows []UsageDay) error {
	if len(rows) == 0 {
		return nil
	}
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "day"}, {Name: "user_id"}, {Name: "model"}, {Name: "purpose"}, {Name: "estimated"}},
		DoUpdates: clause.Assignments(map[string]any{
			"calls":         gorm.Expr("usage_days.calls + excluded.calls"),
			"input_tokens":  gorm.Expr("usage_days.input_tokens + excluded.input_tokens"),
			"output_tokens": gorm.Expr("usage_days.output_tokens + excluded.output_tokens"),
			"cost":          gorm.Expr("usage_days.cost + excluded.cost"),
		}),
	}).Create(&rows).Error)
}

// UsageFilter picks usage rows: days from From to To inclusive (either may
// be empty), of the given users (nil: everyone).
type UsageFilter struct {
	From, To string
	UserIDs  []int64
}

func (s *Store) usageQuery(ctx context.Context, f UsageFilter) *gorm.DB {
	q := s.db.WithContext(ctx).Model(&UsageDay{})
	if f.From != "" {
		q = q.Where("day >= ?", f.From)
	}
	if f.To != "" {
		q = q.Where("day <= ?", f.To)
	}
	if f.UserIDs != nil {
		q = q.Where("user_id IN ?", f.UserIDs)
	}
	return q
}

// UsageDays lists the rows the filter picks, by day then user, model and
// purpose.
func (s *Store) UsageDays(ctx context.Context, f UsageFilter) ([]UsageDay, error) {
	var out []UsageDay
	err := s.usageQuery(ctx, f).Order("day, user_id, model, purpose, estimated").Find(&out).Error
	return out, translate(err)
}

// UsageSum is tokens (input and output) and cost added up.
type UsageSum struct {
	Tokens int64
	Cost   float64
}

// SumUsage adds up the rows the filter picks.
func (s *Store) SumUsage(ctx context.Context, f UsageFilter) (UsageSum, error) {
	var out UsageSum
	err := s.usageQuery(ctx, f).Select("COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens, COALESCE(SUM(cost), 0) AS cost").
		Scan(&out).Error
	return out, translate(err)
}

// Budget is a limit on model usage (see migration 00033).
type Budget struct {
	ID        int64 `gorm:"primaryKey"`
	Scope     string
	SubjectID int64
	Period    string
	MaxTokens int64
	MaxCost   float64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Budget scopes and periods.
const (
	BudgetGlobal = "global"
	BudgetUser   = "user"
	BudgetGroup  = "group"
	PeriodDay    = "day"
	PeriodMonth  = "month"
)

// PutBudget makes or replaces the budget of its scope, subject and period.
func (s *Store) PutBudget(ctx context.Context, b *Budget) error {
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "scope"}, {Name: "subject_id"}, {Name: "period"}},
		DoUpdates: clause.AssignmentColumns([]string{"max_tokens", "max_cost", "updated_at"}),
	}).Create(b).Error)
}

// Budgets lists every budget.
func (s *Store) Budgets(ctx context.Context) ([]Budget, error) {
	var out []Budget
	err := s.db.WithContext(ctx).Order("scope, subject_id, period").Find(&out).Error
	return out, translate(err)
}

// DeleteBudget removes one; ErrNotFound when there is none.
func (s *Store) DeleteBudget(ctx context.Context, id int64) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&Budget{})
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	if res.Error != nil {
		return translate(res.Error)
	}
	return translate(s.db.WithContext(ctx).Where("budget_id = ?", id).Delete(&BudgetHold{}).Error)
}
