package trash

import (
	"context"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Version is the JSON shape of one uploaded content of a file.
type Version struct {
	ID        int64     `json:"id"`
	Version   int       `json:"version"`
	Size      int64     `json:"size"`
	MediaType string    `json:"media_type"`
	CreatedAt time.Time `json:"created_at"`
	// By and Author name who stored it: the owner or a write grantee.
	By      string `json:"by"`
	Author  string `json:"author"`
	Current bool   `json:"current"`
}

// Versions lists a file's uploaded contents, newest (the current one) first.
func (t *Service) Versions(ctx context.Context, c kb.Caller, raw string) ([]Version, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return nil, err
	}
	u, n := tg.URI, tg.Node
	if n.IsDir() {
		return nil, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder; only files have versions", u).WithDetail("uri", u.String())
	}
	vs, err := t.Store().VersionsOf(ctx, []int64{n.ID})
	if err != nil {
		return nil, apierr.Internal("list versions", err)
	}
	names, err := store.NamesBy(ctx, t.Store(), vs, func(v store.FileVersion) *int64 { return v.AuthorID })
	if err != nil {
		return nil, apierr.Internal("list versions: read author names", err)
	}
	var out []Version
	for i := len(vs) - 1; i >= 0; i-- {
		if v := vs[i]; v.Body == store.BodyRaw {
			who := knowledge.NameOr(names, v.AuthorID, tg.Owner.Username)
			out = append(out, Version{ID: v.ID, Version: v.Version, Size: v.Size, MediaType: v.MediaType,
				CreatedAt: v.CreatedAt, By: who, Author: who, Current: len(out) == 0})
		}
	}
	return out, nil
}

// RestoreVersion makes an earlier content the file's current one, as a new
// version: the history only grows.
func (t *Service) RestoreVersion(ctx context.Context, c kb.Caller, raw string, versionID int64) (knowledge.Item, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Write)
	if err != nil {
		return knowledge.Item{}, err
	}
	u, n, own := tg.URI, tg.Node, tg.Owner
	if n.IsDir() {
		return knowledge.Item{}, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder; only files have versions", u).WithDetail("uri", u.String())
	}
	var out store.Node
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		n, err := knowledge.Fresh(ctx, tx, own, u, n)
		if err != nil {
			return err
		}
		if err := knowledge.GuardGenerated(own, n); err != nil {
			return err
		}
		vs, err := tx.VersionsOf(ctx, []int64{n.ID})
		if err != nil {
			return err
		}
		var pick, latest *store.FileVersion
		for i := range vs {
			if vs[i].Body != store.BodyRaw {
				continue
			}
			if vs[i].ID == versionID {
				pick = &vs[i]
			}
			latest = &vs[i]
		}
		if pick == nil {
			return apierr.NotFound(apierr.CodeNotFound, "%s has no version %d", u, versionID)
		}
		if pick != latest {
			v := *pick
			v.ID, v.Version, v.CreatedAt, v.SourceVersionID, v.AuthorID = 0, 0, time.Time{}, nil, knowledge.Author(c, own)
			// The row references bytes another version of this node already
			// holds, in the same transaction: no blob lock is needed.
			if err := tx.AddVersion(ctx, &v); err != nil {
				return err
			}
			if err := tx.TouchNode(ctx, n.ID, v.Size); err != nil {
				return err
			}
			if _, err := t.MarkForIndex(ctx, tx, n.ID); err != nil {
				return err
			}
			if err := knowledge.MarkChanged(ctx, tx, own, n); err != nil {
				return err
			}
		}
		out, err = tx.NodeByID(ctx, own.ID, n.ID)
		return err
	})
	if err != nil {
		return knowledge.Item{}, knowledge.WrapStoreErr("restore version", err)
	}
	return knowledge.ItemOf(own.Username, out), nil
}
