package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// MaxJSONBody bounds every JSON request body.
const MaxJSONBody = 1 << 20

// validator is implemented by every request type.
type validator interface{ Validate() error }

// bindJSON decodes exactly one JSON object into v, refusing unknown fields,
// trailing data and oversized bodies, then validates it.
func bindJSON(c echo.Context, v validator) error {
	r := c.Request()
	body := http.MaxBytesReader(c.Response(), r.Body, MaxJSONBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "the body must hold exactly one JSON object")
	}
	return v.Validate()
}

func jsonError(err error) error {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return apierr.TooLarge(apierr.CodeBodyTooLarge, "the JSON body is larger than %d bytes", MaxJSONBody)
	case errors.Is(err, io.EOF):
		return apierr.BadRequest(apierr.CodeInvalidJSON, "the request body is empty; send a JSON object")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return apierr.BadRequest(apierr.CodeInvalidJSON, "the body is not valid JSON")
	case errors.As(err, &typeErr):
		return apierr.BadRequest(apierr.CodeInvalidJSON, "field %q must be of type %s", typeErr.Field, typeErr.Type.String())
	}
	// json reports unknown fields only as text.
	return apierr.BadRequest(apierr.CodeInvalidJSON, "%s", sanitizeJSONMessage(err.Error()))
}

func sanitizeJSONMessage(msg string) string {
	const prefix = "json: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		msg = msg[len(prefix):]
	}
	return kb.Clip(msg, 200)
}

// queryInt reads an optional integer query parameter; code names it in
// the refusal of one that is not an integer.
func queryInt(c echo.Context, name string, code apierr.Code) (int64, error) {
	s := c.QueryParam(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, apierr.BadRequest(code, "%s must be an integer", name)
	}
	return n, nil
}

// queryBool reads an optional true/false query parameter; code names it in
// the refusal of one that is neither.
func queryBool(c echo.Context, name string, code apierr.Code) (bool, error) {
	s := c.QueryParam(name)
	if s == "" {
		return false, nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return false, apierr.BadRequest(code, "%s must be true or false, not %q", name, kb.Clip(s, 60))
	}
	return v, nil
}

// pathID reads a numeric :id path parameter.
func pathID(c echo.Context) (int64, error) {
	n, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || n <= 0 {
		return 0, apierr.BadRequest(apierr.CodeInvalidID, "id must be a positive integer")
	}
	return n, nil
}
