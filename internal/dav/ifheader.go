package dav

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/webdav"
)

// webdav checks the If header (RFC 4918 §10.4) of the methods it serves
// but keeps its parser to itself; COPY and MOVE are served here, so this
// is the same check: a request without If may go on when no other
// client's lock covers what it changes, and a request with one needs one
// of its lists to name a lock that does.
type ifList struct {
	resource   string // tagged list: the URL it is about; "" for the request's
	conditions []webdav.Condition
}

// parseIf reads an If header; ok is false when it is malformed.
func parseIf(h string) (lists []ifList, ok bool) {
	s := strings.TrimSpace(h)
	var tag string
	for s != "" {
		switch s[0] {
		case '<':
			end := strings.IndexByte(s, '>')
			if end < 0 {
				return nil, false
			}
			tag, s = s[1:end], strings.TrimSpace(s[end+1:])
		case '(':
			end := strings.IndexByte(s, ')')
			if end < 0 {
				return nil, false
			}
			conds, ok := parseConditions(s[1:end])
			if !ok {
				return nil, false
			}
			lists = append(lists, ifList{resource: tag, conditions: conds})
			s = strings.TrimSpace(s[end+1:])
		default:
			return nil, false
		}
	}
	return lists, len(lists) > 0
}

func parseConditions(s string) ([]webdav.Condition, bool) {
	var out []webdav.Condition
	s = strings.TrimSpace(s)
	for s != "" {
		var c webdav.Condition
		if rest, ok := strings.CutPrefix(s, "Not"); ok {
			c.Not, s = true, strings.TrimSpace(rest)
		}
		switch {
		case strings.HasPrefix(s, "<"):
			end := strings.IndexByte(s, '>')
			if end < 0 {
				return nil, false
			}
			c.Token, s = s[1:end], s[end+1:]
		case strings.HasPrefix(s, "["):
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, false
			}
			c.ETag, s = s[1:end], s[end+1:]
		default:
			return nil, false
		}
		out = append(out, c)
		s = strings.TrimSpace(s)
	}
	return out, len(out) > 0
}

// confirm answers 0 when the request may change src and dst (either may
// be ""), or the status that refuses it.
func (h *door) confirm(r *http.Request, ls *lockSystem, src, dst string) int {
	now := time.Now()
	hdr := r.Header.Get("If")
	if hdr == "" {
		for _, name := range []string{src, dst} {
			if name == "" {
				continue
			}
			if _, err := ls.Create(now, webdav.LockDetails{Root: name, ZeroDepth: true, Duration: -1}); err != nil {
				if err == webdav.ErrLocked {
					return webdav.StatusLocked
				}
				return http.StatusInternalServerError
			}
		}
		return 0
	}
	lists, ok := parseIf(hdr)
	if !ok {
		return http.StatusBadRequest
	}
	for _, l := range lists {
		lsrc := src
		if l.resource != "" {
			u, err := url.Parse(l.resource)
			if err != nil || u.Host != "" && u.Host != r.Host {
				continue
			}
			name, ok := strings.CutPrefix(u.Path, Path)
			if !ok {
				continue
			}
			lsrc = name
		}
		if _, err := ls.Confirm(now, lsrc, dst, l.conditions...); err == nil {
			return 0
		} else if err != webdav.ErrConfirmationFailed {
			return http.StatusInternalServerError
		}
	}
	return http.StatusPreconditionFailed
}
