package store

import (
	"context"
	"strings"
	"time"
)

// Share roles.
const (
	ShareRead  = "read"
	ShareWrite = "write"
)

// Share grants one user or one group a role on a node and everything below
// it. Exactly one of UserID and GroupID is set.
type Share struct {
	ID        int64 `gorm:"primaryKey"`
	OwnerID   int64
	NodeID    int64
	UserID    *int64
	GroupID   *int64
	Role      string
	CreatedAt time.Time
}

// Grant is a share that reaches a caller, with the path of its node.
type Grant struct {
	ShareID int64
	NodeID  int64
	Path    string
	Role    string
}

// SharedRoot is a node another user shares with the caller.
type SharedRoot struct {
	Node
	Owner string
	Role  string
}

// CreateShare inserts sh; ErrConflict when the node already has a share for
// that grantee.
func (s *Store) CreateShare(ctx context.Context, sh *Share) error {
	sh.CreatedAt = now()
	return translate(s.db.WithContext(ctx).Create(sh).Error)
}

// ShareByID finds a share of the owner.
func (s *Store) ShareByID(ctx context.Context, ownerID, id int64) (Share, error) {
	var sh Share
	err := s.db.WithContext(ctx).Where("owner_id = ? AND id = ?", ownerID, id).Take(&sh).Error
	return sh, translate(err)
}

// SetShareRole changes the role of a share.
func (s *Store) SetShareRole(ctx context.Context, id int64, role string) error {
	return translate(s.db.WithContext(ctx).Model(&Share{}).Where("id = ?", id).Update("role", role).Error)
}

// DeleteShare revokes a share.
func (s *Store) DeleteShare(ctx context.Context, id int64) error {
	return translate(s.db.WithContext(ctx).Where("id = ?", id).Delete(&Share{}).Error)
}

// SharesOn returns the shares on the given nodes, oldest first.
func (s *Store) SharesOn(ctx context.Context, nodeIDs []int64) ([]Share, error) {
	var out []Share
	if len(nodeIDs) == 0 {
		return out, nil
	}
	err := s.db.WithContext(ctx).Where("node_id IN ?", nodeIDs).Order("id").Find(&out).Error
	return out, translate(err)
}

// SharesBy returns every share the owner made, oldest first.
func (s *Store) SharesBy(ctx context.Context, ownerID int64) ([]Share, error) {
	var out []Share
	err := s.db.WithContext(ctx).Where("owner_id = ?", ownerID).Order("id").Find(&out).Error
	return out, translate(err)
}

// reaching narrows shares to those that name the caller or a group the
// caller is in, read at the moment of the query.
const reaching = "(shares.user_id = ? OR shares.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?))"

// GrantsOn returns the shares reaching callerID on the owner's nodes at the
// given paths (a node's path and its ancestors' paths).
func (s *Store) GrantsOn(ctx context.Context, callerID, ownerID int64, paths []string) ([]Grant, error) {
	var out []Grant
	err := s.db.WithContext(ctx).Table("shares").
		Select("shares.id AS share_id, shares.node_id, nodes.path, shares.role").
		Joins("JOIN nodes ON nodes.id = shares.node_id").
		Where("shares.owner_id = ? AND nodes.user_id = ? AND nodes.path IN ?", ownerID, ownerID, paths).
		Where(reaching, callerID, callerID).
		Order("nodes.path").Scan(&out).Error
	return out, translate(err)
}

// SharedWith returns the nodes other users share with callerID, each with
// its owner and the strongest role reaching it, by owner then path. A node
// below another returned node of the same owner is left out: its share is
// folded into the outer one's entry.
func (s *Store) SharedWith(ctx context.Context, callerID int64) ([]SharedRoot, error) {
	var rows []SharedRoot
	err := s.db.WithContext(ctx).Table("shares").
		Select("nodes.*, users.username AS owner, shares.role").
		Joins("JOIN nodes ON nodes.id = shares.node_id").
		Joins("JOIN users ON users.id = shares.owner_id").
		Where("shares.owner_id <> ? AND users.disabled = ?", callerID, false).
		Where(reaching, callerID, callerID).
		Order("users.username, nodes.path").Scan(&rows).Error
	if err != nil {
		return nil, translate(err)
	}
	var out []SharedRoot
next:
	for _, r := range rows {
		// Path order is not ancestor order ("a b" sorts between "a" and
		// "a/b"), so look at every kept root of the same owner.
		for k := len(out) - 1; k >= 0 && out[k].UserID == r.UserID; k-- {
			kept := &out[k]
			switch {
			case r.Path == kept.Path:
				if r.Role == ShareWrite {
					kept.Role = ShareWrite
				}
				continue next
			case kept.Path == "" || strings.HasPrefix(r.Path, kept.Path+"/"):
				continue next
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// SharedNodes tells which of the nodes carry at least one share.
func (s *Store) SharedNodes(ctx context.Context, nodeIDs []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(nodeIDs) == 0 {
		return out, nil
	}
	var ids []int64
	err := s.db.WithContext(ctx).Model(&Share{}).Distinct("node_id").Where("node_id IN ?", nodeIDs).Pluck("node_id", &ids).Error
	for _, id := range ids {
		out[id] = true
	}
	return out, translate(err)
}
