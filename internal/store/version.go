package store

import (
	"context"
	"errors"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// Bodies a file version can hold.
const (
	BodyRaw = "raw" // the uploaded bytes
	BodyL2  = "l2"  // text extracted by the parse step
)

// FileVersion is one stored body of a file; the bytes are in the blob store.
type FileVersion struct {
	ID        int64 `gorm:"primaryKey"`
	NodeID    int64
	Body      string
	Version   int
	BlobHash  string
	Size      int64
	IsText    bool
	CharCount int64
	MediaType string
	// SourceVersionID is, for an L2 body, the raw version it was parsed from.
	SourceVersionID *int64
	// ExtractionJSON describes, for an L2 body, how it was extracted.
	ExtractionJSON *string `gorm:"column:extraction_json"`
	// PageStarts is, for the L2 body of a PDF, where each page begins
	// (EncodePageStarts). LatestBodies leaves it empty; PageStartsOf reads it.
	PageStarts string
	// Encoding is, for a raw version in a text encoding other than UTF-8,
	// that encoding; its decoded text is an L2 body sourced from it.
	Encoding string
	// AuthorID made the version when it was not the file's owner.
	AuthorID  *int64
	CreatedAt time.Time
}

// AddVersion stores v as the next version of its node's body.
func (s *Store) AddVersion(ctx context.Context, v *FileVersion) error {
	var last int
	err := s.db.WithContext(ctx).Model(&FileVersion{}).
		Where("node_id = ? AND body = ?", v.NodeID, v.Body).
		Select("COALESCE(MAX(version), 0)").Scan(&last).Error
	if err != nil {
		return translate(err)
	}
	v.Version = last + 1
	return translate(s.db.WithContext(ctx).Create(v).Error)
}

// AddFirstVersions stores vs, each the first version of its node's body
// (nodes this transaction made), a few hundred rows per statement; it sets
// their ids and numbers.
func (s *Store) AddFirstVersions(ctx context.Context, vs []FileVersion) error {
	if len(vs) == 0 {
		return nil
	}
	for i := range vs {
		vs[i].Version = 1
	}
	return translate(s.db.WithContext(ctx).CreateInBatches(vs, rowsPerStatement).Error)
}

// LatestVersion returns the newest version of a node's body.
func (s *Store) LatestVersion(ctx context.Context, nodeID int64, body string) (FileVersion, error) {
	var v FileVersion
	err := s.db.WithContext(ctx).Where("node_id = ? AND body = ?", nodeID, body).
		Order("version DESC").Take(&v).Error
	return v, translate(err)
}

func isConflict(err error) bool { return errors.Is(err, ErrConflict) }

// BlobsInUse returns which of hashes some version, trash item, or queued,
// running or machine-failed job still references.
func (s *Store) BlobsInUse(ctx context.Context, hashes []string) (map[string]bool, error) {
	var used, trashed []string
	err := s.db.WithContext(ctx).Model(&FileVersion{}).Distinct("blob_hash").
		Where("blob_hash IN ?", hashes).Pluck("blob_hash", &used).Error
	if err != nil {
		return nil, translate(err)
	}
	err = s.db.WithContext(ctx).Model(&TrashBlob{}).Distinct("blob_hash").
		Where("blob_hash IN ?", hashes).Pluck("blob_hash", &trashed).Error
	if err != nil {
		return nil, translate(err)
	}
	// A job that failed for the machine (a full disk, the database away)
	// keeps its blob too: it is retried by hand once the fault is gone.
	var waiting []string
	err = s.db.WithContext(ctx).Model(&Job{}).Distinct("blob_hash").
		Where("blob_hash IN ? AND (state IN ? OR state = ? AND error_code IN ?)", hashes,
			[]string{JobQueued, JobRunning}, JobFailed, []string{apierr.CodeInsufficientStorage.String(), apierr.CodeUnavailable.String()}).
		Pluck("blob_hash", &waiting).Error
	if err != nil {
		return nil, translate(err)
	}
	used = append(append(used, trashed...), waiting...)
	out := make(map[string]bool, len(used))
	for _, h := range used {
		out[h] = true
	}
	return out, nil
}

// SetEncoding records the text encoding of a raw version's bytes.
func (s *Store) SetEncoding(ctx context.Context, versionID int64, encoding string) error {
	return translate(s.db.WithContext(ctx).Model(&FileVersion{}).Where("id = ?", versionID).
		Update("encoding", encoding).Error)
}
