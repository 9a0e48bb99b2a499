package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// Roles of generated files.
const (
	RoleSummary  = "summary"
	RoleOverview = "overview"
	RoleAbstract = "abstract"
)

// Provenance records what a generated file was made from: for a summary its
// source file and that file's content hash when it was summarized; for all
// roles the fingerprint of inputs + configuration + prompt version that lets
// an unchanged input skip the model.
type Provenance struct {
	NodeID        int64 `gorm:"primaryKey;autoIncrement:false"`
	UserID        int64
	Role          string
	SourceNodeID  *int64
	SourceHash    string
	Fingerprint   string
	SourcesJSON   string `gorm:"column:sources_json"`
	JobID         int64
	Executor      string
	Model         string
	Skill         string
	SkillID       string
	SkillHash     string
	PromptVersion string
	UpdatedAt     time.Time
}

// TableName keeps the table name singular, as in the migration.
func (Provenance) TableName() string { return "provenance" }

// PutProvenance inserts or replaces the provenance of p.NodeID.
func (s *Store) PutProvenance(ctx context.Context, p *Provenance) error {
	p.UpdatedAt = now()
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "node_id"}},
		UpdateAll: true,
	}).Create(p).Error)
}

// ProvenanceOf returns the provenance of a generated file.
func (s *Store) ProvenanceOf(ctx context.Context, nodeID int64) (Provenance, error) {
	var p Provenance
	err := s.db.WithContext(ctx).Where("node_id = ?", nodeID).Take(&p).Error
	return p, translate(err)
}

// SummariesIn returns the summaries that are direct children of the folder
// parentID, with their nodes, by name.
func (s *Store) SummariesIn(ctx context.Context, parentID int64) ([]Node, []Provenance, error) {
	var ns []Node
	err := s.db.WithContext(ctx).Model(&Node{}).
		Joins("JOIN provenance ON provenance.node_id = nodes.id").
		Where("nodes.parent_id = ? AND provenance.role = ?", parentID, RoleSummary).
		Order("nodes.name").Find(&ns).Error
	if err != nil {
		return nil, nil, translate(err)
	}
	ids := make([]int64, len(ns))
	for i, n := range ns {
		ids[i] = n.ID
	}
	byNode := make(map[int64]Provenance, len(ns))
	for _, part := range chunks(ids) {
		var rows []Provenance
		if err := s.db.WithContext(ctx).Where("node_id IN ?", part).Find(&rows).Error; err != nil {
			return nil, nil, translate(err)
		}
		for _, p := range rows {
			byNode[p.NodeID] = p
		}
	}
	ps := make([]Provenance, 0, len(ns))
	for _, n := range ns {
		p, ok := byNode[n.ID]
		if !ok {
			return nil, nil, ErrNotFound // deleted between the two reads
		}
		ps = append(ps, p)
	}
	return ns, ps, nil
}

// StaleSummaries returns the user's summaries whose source file has a newer
// raw body than the one summarized, keyed by source node id.
func (s *Store) StaleSummaries(ctx context.Context, userID int64, sourceIDs []int64) (map[int64]Provenance, error) {
	out := map[int64]Provenance{}
	if len(sourceIDs) == 0 {
		return out, nil
	}
	var ps []Provenance
	err := s.db.WithContext(ctx).Where("user_id = ? AND role = ? AND source_node_id IN ?", userID, RoleSummary, sourceIDs).
		Find(&ps).Error
	if err != nil {
		return nil, translate(err)
	}
	bodies, err := s.LatestBodies(ctx, sourceIDs)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if raw, ok := bodies[*p.SourceNodeID][BodyRaw]; ok && raw.BlobHash != p.SourceHash {
			out[*p.SourceNodeID] = p
		}
	}
	return out, nil
}
