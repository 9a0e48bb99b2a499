package dav

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"

	"github.com/knowspace/knowspace/internal/apierr"
)

// maxXMLBody bounds a PROPFIND, PROPPATCH or LOCK body: a list of
// property names or values, never file content.
const maxXMLBody = 1 << 20

// checkXMLBody reads a small XML request body whole and refuses what
// webdav's decoder lets through: a namespace prefix bound to the empty
// name (xmlns:p="", not allowed in XML 1.0 namespaces). The body is put
// back for webdav to read.
func checkXMLBody(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxXMLBody+1))
	if err != nil {
		return apierr.BadRequest(apierr.CodeUnreadableBody, "the request body could not be read").WithCause(err)
	}
	if len(b) > maxXMLBody {
		return apierr.TooLarge(apierr.CodeBodyTooLarge, "an XML request body is limited to %d bytes", maxXMLBody)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // webdav answers malformed XML itself
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Space == "xmlns" && a.Value == "" {
					return apierr.BadRequest(apierr.CodeInvalidXML, "the XML body binds the prefix %q to an empty namespace name", a.Name.Local)
				}
			}
		}
	}
}
