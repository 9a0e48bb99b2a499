package store

import (
	"context"
	"time"
)

// Skill is a compile prompt a user wrote. OutputLanguage is a BCP 47 tag,
// or "" for the document's own language.
type Skill struct {
	ID             int64 `gorm:"primaryKey"`
	UserID         int64
	Name           string
	Description    string
	Prompt         string
	OutputLanguage string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// SkillChanges are the fields of an update; nil leaves a field as it is.
type SkillChanges struct {
	Name, Description, Prompt, OutputLanguage *string
}

// CreateSkill inserts sk; ErrConflict when the user already has a skill of
// that name.
func (s *Store) CreateSkill(ctx context.Context, sk *Skill) error {
	sk.CreatedAt = now()
	sk.UpdatedAt = sk.CreatedAt
	return translate(s.db.WithContext(ctx).Create(sk).Error)
}

// SkillOf finds the user's skill; ErrNotFound for anyone else's, so another
// user's id cannot be told from a missing one.
func (s *Store) SkillOf(ctx context.Context, userID, id int64) (Skill, error) {
	var sk Skill
	err := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Take(&sk).Error
	return sk, translate(err)
}

// ListSkills returns the user's skills by name.
func (s *Store) ListSkills(ctx context.Context, userID int64) ([]Skill, error) {
	var out []Skill
	err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("name, id").Find(&out).Error
	return out, translate(err)
}

// UpdateSkill applies ch to the user's skill and returns it as stored;
// ErrNotFound for anyone else's, ErrConflict when the new name is taken.
func (s *Store) UpdateSkill(ctx context.Context, userID, id int64, ch SkillChanges) (Skill, error) {
	set := map[string]any{"updated_at": now()}
	for col, v := range map[string]*string{"name": ch.Name, "description": ch.Description,
		"prompt": ch.Prompt, "output_language": ch.OutputLanguage} {
		if v != nil {
			set[col] = *v
		}
	}
	res := s.db.WithContext(ctx).Model(&Skill{}).Where("user_id = ? AND id = ?", userID, id).Updates(set)
	if res.Error != nil {
		return Skill{}, translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return Skill{}, ErrNotFound
	}
	return s.SkillOf(ctx, userID, id)
}

// DeleteSkill removes the user's skill; ErrNotFound for anyone else's.
func (s *Store) DeleteSkill(ctx context.Context, userID, id int64) error {
	res := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Delete(&Skill{})
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}
