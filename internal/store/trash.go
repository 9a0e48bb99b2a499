package store

import (
	"context"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

func exprCase(state string, then any, otherwise string) any {
	return gorm.Expr("CASE WHEN state = ? THEN ? ELSE "+otherwise+" END", state, then)
}

// TrashItem is a deleted node (with its subtree) its owner can restore.
type TrashItem struct {
	ID     int64 `gorm:"primaryKey"`
	UserID int64
	Path   string // where it was
	// ParentID is the folder it was deleted from while that exists: a
	// restore puts it back there, wherever the folder is now.
	ParentID    *int64
	Name        string
	Kind        string
	Size        int64
	PayloadJSON string
	// DeletedBy deleted it when it was not the owner (a write grantee).
	DeletedBy *int64
	DeletedAt time.Time
}

// TrashBlob records that a trash item needs the bytes of a blob.
type TrashBlob struct {
	ItemID   int64  `gorm:"primaryKey"`
	BlobHash string `gorm:"primaryKey"`
}

// Subtree returns n and every node below it, parents before children.
func (s *Store) Subtree(ctx context.Context, n Node) ([]Node, error) {
	prefix := n.Path + "/"
	var ns []Node
	err := s.db.WithContext(ctx).
		Where("user_id = ? AND (id = ? OR substr(path, 1, ?) = ?)", n.UserID, n.ID, utf8.RuneCountInString(prefix), prefix).
		Order("path").Find(&ns).Error
	return ns, translate(err)
}

// VersionsOf returns every version of every body of the nodes, oldest first.
func (s *Store) VersionsOf(ctx context.Context, nodeIDs []int64) ([]FileVersion, error) {
	var vs []FileVersion
	if len(nodeIDs) == 0 {
		return vs, nil
	}
	err := s.db.WithContext(ctx).Where("node_id IN ?", nodeIDs).Order("node_id, body, version").Find(&vs).Error
	return vs, translate(err)
}

// ReinsertVersion stores v again as it was (its number included): restoring from
// the trash keeps a file's history.
func (s *Store) ReinsertVersion(ctx context.Context, v *FileVersion) error {
	return translate(s.db.WithContext(ctx).Create(v).Error)
}

// AddTrash stores an item and the blobs it needs.
func (s *Store) AddTrash(ctx context.Context, it *TrashItem, hashes []string) error {
	if err := s.db.WithContext(ctx).Create(it).Error; err != nil {
		return translate(err)
	}
	for _, h := range hashes {
		if err := s.db.WithContext(ctx).Create(&TrashBlob{ItemID: it.ID, BlobHash: h}).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// ListTrash returns the user's trash, newest first.
func (s *Store) ListTrash(ctx context.Context, userID int64) ([]TrashItem, error) {
	var its []TrashItem
	err := s.db.WithContext(ctx).Omit("payload_json").Where("user_id = ?", userID).
		Order("deleted_at DESC, id DESC").Find(&its).Error
	return its, translate(err)
}

// TrashByID returns one of the user's trash items.
func (s *Store) TrashByID(ctx context.Context, userID, id int64) (TrashItem, error) {
	var it TrashItem
	err := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Take(&it).Error
	return it, translate(err)
}

// PurgeTrash deletes trash items matching the condition and returns the
// hashes they referenced, for the caller to free. userID 0 means any user.
func (s *Store) PurgeTrash(ctx context.Context, userID int64, id int64, before time.Time) ([]string, int, error) {
	q := s.db.WithContext(ctx).Model(&TrashItem{})
	if userID != 0 {
		q = q.Where("user_id = ?", userID)
	}
	if id != 0 {
		q = q.Where("id = ?", id)
	}
	if !before.IsZero() {
		q = q.Where("deleted_at < ?", before)
	}
	var ids []int64
	if err := q.Pluck("id", &ids).Error; err != nil || len(ids) == 0 {
		return nil, 0, translate(err)
	}
	var hashes []string
	err := s.db.WithContext(ctx).Model(&TrashBlob{}).Distinct("blob_hash").
		Where("item_id IN ?", ids).Pluck("blob_hash", &hashes).Error
	if err != nil {
		return nil, 0, translate(err)
	}
	err = s.db.WithContext(ctx).Where("id IN ?", ids).Delete(&TrashItem{}).Error
	return hashes, len(ids), translate(err)
}

// CancelJobsOf cancels the active compile jobs of the nodes (they are being
// deleted), as CancelJob does for one. A running job is given its reason
// now, while the deletion is known: its worker ends it with that reason.
func (s *Store) CancelJobsOf(ctx context.Context, nodeIDs []int64) error {
	if len(nodeIDs) == 0 {
		return nil
	}
	t := now()
	return translate(s.db.WithContext(ctx).Model(&Job{}).
		Where("node_id IN ? AND state IN ?", nodeIDs, []string{JobQueued, JobRunning}).
		Updates(map[string]any{
			"cancel_requested": true, "updated_at": t,
			"state":         exprCase(JobQueued, JobCancelled, "state"),
			"finished_at":   exprCase(JobQueued, t, "finished_at"),
			"error_code":    "cancelled",
			"error_message": CancelledDeleted,
		}).Error)
}

// ReferencedBlobs lists every hash a version or a trash item references.
func (s *Store) ReferencedBlobs(ctx context.Context) ([]string, error) {
	var hs []string
	err := s.db.WithContext(ctx).Raw(`SELECT blob_hash FROM file_versions UNION SELECT blob_hash FROM trash_blobs`).
		Scan(&hs).Error
	return hs, translate(err)
}
