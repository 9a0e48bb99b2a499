package store

import (
	"context"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm/clause"
)

// DavProp is a dead WebDAV property of a node.
type DavProp struct {
	NodeID   int64  `gorm:"primaryKey"`
	NS       string `gorm:"primaryKey;column:ns"`
	Name     string `gorm:"primaryKey"`
	Lang     string
	InnerXML string `gorm:"column:inner_xml"`
}

// DavProps returns a node's dead properties.
func (s *Store) DavProps(ctx context.Context, nodeID int64) ([]DavProp, error) {
	var ps []DavProp
	err := s.db.WithContext(ctx).Where("node_id = ?", nodeID).Order("ns, name").Find(&ps).Error
	return ps, translate(err)
}

// DavPropPatch sets a dead property, or removes it.
type DavPropPatch struct {
	DavProp
	Remove bool
}

// PatchDavProps applies the patches in order in one transaction: a
// PROPPATCH is all or nothing.
func (s *Store) PatchDavProps(ctx context.Context, nodeID int64, patches []DavPropPatch) error {
	return s.InTx(ctx, func(tx *Store) error {
		db := tx.db.WithContext(ctx)
		for _, p := range patches {
			q := db.Where("node_id = ? AND ns = ? AND name = ?", nodeID, p.NS, p.Name)
			if err := q.Delete(&DavProp{}).Error; err != nil {
				return err
			}
			if p.Remove {
				continue
			}
			row := p.DavProp
			row.NodeID = nodeID
			if err := db.Create(&row).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// CopyDavProps gives the nodes of the subtree at dst (a copy of the one at
// src, in the same user's tree) the dead properties of their sources; the
// node at dst alone unless deep.
func (s *Store) CopyDavProps(ctx context.Context, userID int64, src, dst string, deep bool) error {
	var ps []struct {
		Path string
		DavProp
	}
	q := s.db.WithContext(ctx).Table("dav_props").Select("nodes.path, dav_props.*").
		Joins("JOIN nodes ON nodes.id = dav_props.node_id")
	if prefix := src + "/"; deep {
		q = q.Where("nodes.user_id = ? AND (nodes.path = ? OR substr(nodes.path, 1, ?) = ?)", userID, src, utf8.RuneCountInString(prefix), prefix)
	} else {
		q = q.Where("nodes.user_id = ? AND nodes.path = ?", userID, src)
	}
	err := q.Scan(&ps).Error
	if err != nil || len(ps) == 0 {
		return translate(err)
	}
	paths := make([]string, 0, len(ps))
	for _, p := range ps {
		paths = append(paths, dst+strings.TrimPrefix(p.Path, src))
	}
	nodes, err := s.NodesByPaths(ctx, userID, paths)
	if err != nil {
		return err
	}
	ids := make(map[string]int64, len(nodes))
	for _, n := range nodes {
		ids[n.Path] = n.ID
	}
	var out []DavProp
	for i, p := range ps {
		if id, ok := ids[paths[i]]; ok {
			p.DavProp.NodeID = id
			out = append(out, p.DavProp)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&out).Error)
}

// DavPropsOf returns the dead properties of the nodes, by node.
func (s *Store) DavPropsOf(ctx context.Context, nodeIDs []int64) (map[int64][]DavProp, error) {
	out := map[int64][]DavProp{}
	for _, ids := range chunks(nodeIDs) {
		var ps []DavProp
		if err := s.db.WithContext(ctx).Where("node_id IN ?", ids).Order("node_id, ns, name").Find(&ps).Error; err != nil {
			return nil, translate(err)
		}
		for _, p := range ps {
			out[p.NodeID] = append(out[p.NodeID], p)
		}
	}
	return out, nil
}
