package store

import (
	"context"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
)

// SearchRoot is a place a search looks: a user's folder ("" for the root)
// with everything below it, or a single file.
type SearchRoot struct {
	UserID int64
	Path   string
	Dir    bool
}

// under restricts q, whose nodes table is aliased n, to the root.
func (r SearchRoot) under(q *gorm.DB) *gorm.DB {
	c, args := r.cond()
	return q.Where(c, args...)
}

// cond is the root as a condition on the nodes table aliased n.
func (r SearchRoot) cond() (string, []any) {
	switch {
	case !r.Dir:
		return "n.user_id = ? AND n.path = ?", []any{r.UserID, r.Path}
	case r.Path != "":
		return "n.user_id = ? AND n.path > ? AND n.path < ?", []any{r.UserID, r.Path + "/", r.Path + "0"}
	}
	return "n.user_id = ?", []any{r.UserID}
}

// SearchNames returns up to limit nodes below root whose name contains
// needle, in path order. The match is a superset where the dialect folds
// case differently from the caller (SQLite's LIKE folds ASCII only), so
// the caller confirms each name.
func (s *Store) SearchNames(ctx context.Context, root SearchRoot, needle string, limit int) ([]Node, error) {
	q := root.under(s.db.WithContext(ctx).Table("nodes n").Select("n.*"))
	like := "%" + escapeLike(needle) + "%"
	switch {
	case s.dialect == DialectPostgres:
		q = q.Where(`n.name ILIKE ? ESCAPE '\'`, like)
	case asciiOrCaseless(needle):
		q = q.Where(`n.name LIKE ? ESCAPE '\'`, like)
	}
	if root.Dir && root.Path == "" {
		q = q.Where("n.path <> ''")
	}
	var ns []Node
	err := q.Order("n.path").Limit(limit).Find(&ns).Error
	return ns, translate(err)
}

// asciiOrCaseless reports whether SQLite's LIKE, which folds ASCII letters
// only, finds every name containing s in any case.
func asciiOrCaseless(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && strings.ToUpper(string(r)) != strings.ToLower(string(r)) {
			return false
		}
	}
	return true
}
