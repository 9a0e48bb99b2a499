package dav

import (
	"context"
	"encoding/xml"
	"net/http"

	"golang.org/x/net/webdav"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

type xmlName = xml.Name

// maxDeadProps bounds the dead properties of one node, and maxPropBytes
// one property's value: they are client notes, not a second file.
const (
	maxDeadProps = 64
	maxPropBytes = 16 << 10
)

// deadProps are the properties clients set with PROPPATCH, kept in the
// database with the node.
func (f *fileSystem) deadProps(ctx context.Context, e knowledge.Entry) (map[xml.Name]webdav.Property, error) {
	f.mu.Lock()
	ps, ok := f.props[e.NodeID]
	f.mu.Unlock()
	if !ok {
		var err error
		if ps, err = f.store.DavProps(ctx, e.NodeID); err != nil {
			return nil, err
		}
	}
	out := make(map[xml.Name]webdav.Property, len(ps))
	for _, p := range ps {
		n := xml.Name{Space: p.NS, Local: p.Name}
		out[n] = webdav.Property{XMLName: n, Lang: p.Lang, InnerXML: []byte(p.InnerXML)}
	}
	return out, nil
}

// patchProps applies a PROPPATCH all or nothing; a node the caller may not
// change, or a generated one, refuses every property with 403.
func (f *fileSystem) patchProps(ctx context.Context, e knowledge.Entry, patches []webdav.Proppatch) ([]webdav.Propstat, error) {
	var ops []store.DavPropPatch
	var names []webdav.Property
	sets := 0
	for _, pp := range patches {
		for _, p := range pp.Props {
			names = append(names, webdav.Property{XMLName: p.XMLName})
			dp := store.DavProp{NS: p.XMLName.Space, Name: p.XMLName.Local, Lang: p.Lang, InnerXML: string(p.InnerXML)}
			ops = append(ops, store.DavPropPatch{DavProp: dp, Remove: pp.Remove})
			if !pp.Remove {
				sets++
				if len(dp.InnerXML) > maxPropBytes {
					return refuse(http.StatusInsufficientStorage, names), nil
				}
			}
		}
	}
	if !e.Writable || e.Generated {
		return refuse(http.StatusForbidden, names), nil
	}
	have, err := f.deadProps(ctx, e)
	if err != nil {
		return nil, err
	}
	if len(have)+sets > maxDeadProps {
		return refuse(http.StatusInsufficientStorage, names), nil
	}
	if err := f.store.PatchDavProps(ctx, e.NodeID, ops); err != nil {
		return nil, apierr.Internal("webdav proppatch", err)
	}
	f.mu.Lock()
	delete(f.props, e.NodeID)
	f.mu.Unlock()
	return []webdav.Propstat{{Status: http.StatusOK, Props: names}}, nil
}

func refuse(status int, names []webdav.Property) []webdav.Propstat {
	return []webdav.Propstat{{Status: status, Props: names}}
}
