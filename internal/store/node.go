package store

import (
	"context"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// Node kinds.
const (
	KindDir  = "dir"
	KindFile = "file"
)

// Node is one folder or file of a user's tree. Path is relative to the
// user's root ("" for the root itself, "notes/a.md" below it).
type Node struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	ParentID  *int64
	Name      string
	Path      string
	Kind      string
	Generated bool
	Size      int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IsDir tells a folder from a file.
func (n Node) IsDir() bool { return n.Kind == KindDir }

// ChildPath joins a child name below n.
func (n Node) ChildPath(name string) string {
	if n.Path == "" {
		return name
	}
	return n.Path + "/" + name
}

// EnsureRoot returns the user's root folder, creating it on first use.
func (s *Store) EnsureRoot(ctx context.Context, userID int64) (Node, error) {
	root, err := s.NodeByPath(ctx, userID, "")
	if err != ErrNotFound {
		return root, err
	}
	root = Node{UserID: userID, Name: "", Path: "", Kind: KindDir}
	if err := s.CreateNode(ctx, &root); err != nil && !isConflict(err) {
		return Node{}, err
	}
	return s.NodeByPath(ctx, userID, "")
}

// NodeByPath finds a node of the user by its relative path.
func (s *Store) NodeByPath(ctx context.Context, userID int64, path string) (Node, error) {
	var n Node
	err := s.db.WithContext(ctx).Where("user_id = ? AND path = ?", userID, path).Take(&n).Error
	return n, translate(err)
}

// NodeByID finds a node of the user by its id.
func (s *Store) NodeByID(ctx context.Context, userID, id int64) (Node, error) {
	var n Node
	err := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Take(&n).Error
	return n, translate(err)
}

// Children returns up to limit direct children of parentID after skipping
// offset, folders first then files, each by name: an order that is stable
// across pages and the same on both dialects (byte-wise collation).
func (s *Store) Children(ctx context.Context, parentID int64, offset, limit int) ([]Node, error) {
	var ns []Node
	err := s.db.WithContext(ctx).Where("parent_id = ?", parentID).
		Order("kind, name, id").Offset(offset).Limit(limit).Find(&ns).Error
	return ns, translate(err)
}

// ChildKey is a child's place in the listing order (kind, name, id): a
// keyset page starts strictly after it.
type ChildKey struct {
	Kind string
	Name string
	ID   int64
}

// Key is n's place in the listing order.
func (n Node) Key() ChildKey { return ChildKey{Kind: n.Kind, Name: n.Name, ID: n.ID} }

// ChildrenAfter returns up to limit direct children of parentID that sort
// after after in the order of Children (all of them when after is nil).
// The row-value comparison is a range scan of nodes_children_keyset, so the last
// page of a large folder costs what the first one does.
func (s *Store) ChildrenAfter(ctx context.Context, parentID int64, after *ChildKey, limit int) ([]Node, error) {
	q := s.db.WithContext(ctx).Where("parent_id = ?", parentID)
	if after != nil {
		q = q.Where("(kind, name, id) > (?, ?, ?)", after.Kind, after.Name, after.ID)
	}
	var ns []Node
	err := q.Order("kind, name, id").Limit(limit).Find(&ns).Error
	return ns, translate(err)
}

// CreateNode inserts n; ErrConflict when the path is taken.
func (s *Store) CreateNode(ctx context.Context, n *Node) error {
	return translate(s.db.WithContext(ctx).Create(n).Error)
}

// CreateNodes inserts ns a few hundred rows per statement; it sets their
// ids.
func (s *Store) CreateNodes(ctx context.Context, ns []Node) error {
	if len(ns) == 0 {
		return nil
	}
	return translate(s.db.WithContext(ctx).CreateInBatches(ns, rowsPerStatement).Error)
}

// TouchNode records a new size and modification time.
func (s *Store) TouchNode(ctx context.Context, id, size int64) error {
	return translate(s.db.WithContext(ctx).Model(&Node{}).Where("id = ?", id).
		Updates(map[string]any{"size": size, "updated_at": time.Now().UTC()}).Error)
}

// MoveNode gives n a new parent and name and rewrites the paths of its whole
// subtree in the same statement set; the caller runs it in a transaction and
// has checked that newParent is not inside n.
func (s *Store) MoveNode(ctx context.Context, n Node, newParent Node, newName string) (Node, error) {
	newPath := newParent.ChildPath(newName)
	db := s.db.WithContext(ctx)
	err := db.Model(&Node{}).Where("id = ?", n.ID).Updates(map[string]any{
		"parent_id": newParent.ID, "name": newName, "path": newPath, "updated_at": time.Now().UTC(),
	}).Error
	if err != nil {
		return Node{}, translate(err)
	}
	if n.IsDir() {
		// substr counts characters on both dialects, not bytes.
		prefix := n.Path + "/"
		plen := utf8.RuneCountInString(prefix)
		err = db.Model(&Node{}).
			Where("user_id = ? AND substr(path, 1, ?) = ?", n.UserID, plen, prefix).
			Update("path", gorm.Expr("? || substr(path, ?)", newPath+"/", plen+1)).Error
		if err != nil {
			return Node{}, translate(err)
		}
	}
	return s.NodeByPath(ctx, n.UserID, newPath)
}

// SubtreeBlobs lists the blob hashes referenced by n and its descendants.
func (s *Store) SubtreeBlobs(ctx context.Context, n Node) ([]string, error) {
	prefix := n.Path + "/"
	plen := utf8.RuneCountInString(prefix)
	var hashes []string
	err := s.db.WithContext(ctx).Model(&FileVersion{}).Distinct("blob_hash").
		Joins("JOIN nodes ON nodes.id = file_versions.node_id").
		Where("nodes.user_id = ? AND (nodes.id = ? OR substr(nodes.path, 1, ?) = ?)", n.UserID, n.ID, plen, prefix).
		Pluck("blob_hash", &hashes).Error
	return hashes, translate(err)
}

// DeleteNode removes n; foreign keys cascade to its subtree and versions.
func (s *Store) DeleteNode(ctx context.Context, n Node) error {
	return translate(s.db.WithContext(ctx).Where("id = ?", n.ID).Delete(&Node{}).Error)
}

// NodesByIDs returns the nodes with the given ids, in no order.
func (s *Store) NodesByIDs(ctx context.Context, ids []int64) ([]Node, error) {
	var ns []Node
	if len(ids) == 0 {
		return ns, nil
	}
	err := s.db.WithContext(ctx).Where("id IN ?", ids).Find(&ns).Error
	return ns, translate(err)
}

// NodesByPaths returns the user's nodes at the given paths, in no order.
func (s *Store) NodesByPaths(ctx context.Context, userID int64, paths []string) ([]Node, error) {
	var ns []Node
	err := s.db.WithContext(ctx).Where("user_id = ? AND path IN ?", userID, paths).Find(&ns).Error
	return ns, translate(err)
}

// NodesWithin returns which of the user's nodes ids are root or lie below
// it, found by walking up each node's parents: identity, not paths, so a
// folder renamed away takes what is below it along and a new folder given
// its old name holds none of it.
func (s *Store) NodesWithin(ctx context.Context, userID, root int64, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	var found []int64
	err := s.db.WithContext(ctx).Raw(`WITH RECURSIVE up(start, id, parent_id) AS (
			SELECT id, id, parent_id FROM nodes WHERE user_id = ? AND id IN ?
			UNION ALL
			SELECT up.start, n.id, n.parent_id FROM nodes n JOIN up ON n.id = up.parent_id AND up.id <> ?)
		SELECT DISTINCT start FROM up WHERE id = ?`, userID, ids, root, root).Scan(&found).Error
	for _, id := range found {
		out[id] = true
	}
	return out, translate(err)
}
