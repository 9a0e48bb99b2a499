package store

import (
	"context"
	"strings"
	"time"
)

// Group is a named set of users an admin manages; shares may name it.
type Group struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	CreatedAt time.Time
}

// TableName avoids GROUPS, a keyword in both dialects.
func (Group) TableName() string { return "user_groups" }

// GroupMember puts a user in a group.
type GroupMember struct {
	GroupID int64 `gorm:"primaryKey;autoIncrement:false"`
	UserID  int64 `gorm:"primaryKey;autoIncrement:false"`
}

// Member is a user as a group lists them.
type Member struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
}

// CreateGroup inserts g; ErrConflict when the name is taken.
func (s *Store) CreateGroup(ctx context.Context, g *Group) error {
	g.CreatedAt = now()
	return translate(s.db.WithContext(ctx).Create(g).Error)
}

// GroupByID finds a group.
func (s *Store) GroupByID(ctx context.Context, id int64) (Group, error) {
	var g Group
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&g).Error
	return g, translate(err)
}

// GroupByName finds a group by its name.
func (s *Store) GroupByName(ctx context.Context, name string) (Group, error) {
	var g Group
	err := s.db.WithContext(ctx).Where("name = ?", name).Take(&g).Error
	return g, translate(err)
}

// RenameGroup changes a group's name; ErrConflict when the name is taken.
func (s *Store) RenameGroup(ctx context.Context, id int64, name string) error {
	res := s.db.WithContext(ctx).Model(&Group{}).Where("id = ?", id).Update("name", name)
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// DeleteGroup removes a group; its memberships and shares cascade.
func (s *Store) DeleteGroup(ctx context.Context, id int64) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&Group{})
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// ListGroups returns every group by name.
func (s *Store) ListGroups(ctx context.Context) ([]Group, error) {
	var gs []Group
	err := s.db.WithContext(ctx).Order("name").Find(&gs).Error
	return gs, translate(err)
}

// GroupsOf returns the groups a user belongs to, by name.
func (s *Store) GroupsOf(ctx context.Context, userID int64) ([]Group, error) {
	var gs []Group
	err := s.db.WithContext(ctx).
		Where("id IN (SELECT group_id FROM group_members WHERE user_id = ?)", userID).
		Order("name").Find(&gs).Error
	return gs, translate(err)
}

// MembersOf returns the members of each group, by username.
func (s *Store) MembersOf(ctx context.Context, groupIDs []int64) (map[int64][]Member, error) {
	out := map[int64][]Member{}
	if len(groupIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		GroupID  int64
		ID       int64
		Username string
	}
	err := s.db.WithContext(ctx).Table("group_members").
		Select("group_members.group_id, users.id, users.username").
		Joins("JOIN users ON users.id = group_members.user_id").
		Where("group_members.group_id IN ?", groupIDs).
		Order("users.username").Scan(&rows).Error
	if err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.GroupID] = append(out[r.GroupID], Member{ID: r.ID, Username: r.Username})
	}
	return out, nil
}

// AddMember puts a user in a group; adding a member twice is no error.
func (s *Store) AddMember(ctx context.Context, groupID, userID int64) error {
	err := translate(s.db.WithContext(ctx).Create(&GroupMember{GroupID: groupID, UserID: userID}).Error)
	if isConflict(err) {
		return nil
	}
	return err
}

// RemoveMember takes a user out of a group; ErrNotFound if they were not in it.
func (s *Store) RemoveMember(ctx context.Context, groupID, userID int64) error {
	res := s.db.WithContext(ctx).Where("group_id = ? AND user_id = ?", groupID, userID).Delete(&GroupMember{})
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return translate(res.Error)
}

// Directory lists, for a share picker, the enabled accounts other than
// except and the groups whose names start with prefix, at most limit each.
func (s *Store) Directory(ctx context.Context, prefix string, except int64, limit int) ([]Member, []Group, error) {
	like := escapeLike(strings.ToLower(prefix)) + "%"
	var us []Member
	err := s.db.WithContext(ctx).Model(&User{}).Select("id, username").
		Where("disabled = ? AND id <> ? AND username LIKE ? ESCAPE '\\'", false, except, like).
		Order("username").Limit(limit).Scan(&us).Error
	if err != nil {
		return nil, nil, translate(err)
	}
	var gs []Group
	err = s.db.WithContext(ctx).Where("name LIKE ? ESCAPE '\\'", like).Order("name").Limit(limit).Find(&gs).Error
	return us, gs, translate(err)
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
