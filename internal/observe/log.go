package observe

import (
	"fmt"
	"io"
	"log/slog"
)

// Log formats (config log_format).
const (
	LogText = "text"
	LogJSON = "json"
)

// ParseLevel reads debug, info, warn or error; empty is info.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if s == "" {
		return slog.LevelInfo, nil
	}
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("%q is not debug, info, warn or error", s)
	}
	return l, nil
}

// NewLogHandler builds the text or JSON handler writing to w.
func NewLogHandler(format string, level slog.Leveler, w io.Writer) (slog.Handler, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "", LogText:
		return slog.NewTextHandler(w, opts), nil
	case LogJSON:
		return slog.NewJSONHandler(w, opts), nil
	}
	return nil, fmt.Errorf("%q is not text or json", format)
}

// SetupLogging makes the handler the default for log/slog (and for the
// standard log package, which slog routes through it).
func SetupLogging(format string, level slog.Leveler, w io.Writer) error {
	h, err := NewLogHandler(format, level, w)
	if err != nil {
		return err
	}
	slog.SetDefault(slog.New(h))
	return nil
}
