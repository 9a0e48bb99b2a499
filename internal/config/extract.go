package config

import "errors"

// Extract configures automatic extraction: every uploaded document's text
// parsed without a model, by a pool of workers apart from compile's.
type Extract struct {
	// Auto turns automatic extraction off when false (default true); the
	// text then comes only from compile.
	Auto *bool `yaml:"auto"`
	// Workers is this replica's extraction workers: default 1 where
	// compile workers run and none on a replica with workers: 0 (an API
	// replica); 0 runs none here.
	Workers *int `yaml:"workers"`
}

// DefaultExtractWorkers is one worker: a parse is CPU-bound, and compile
// and chats share the cores.
const DefaultExtractWorkers = 1

// On reports whether automatic extraction is enabled.
func (e Extract) On() bool { return e.Auto == nil || *e.Auto }

// WorkerCount is how many extraction workers this replica runs, given its
// compile workers.
func (e Extract) WorkerCount(compileWorkers int) int {
	switch {
	case !e.On():
		return 0
	case e.Workers != nil:
		return *e.Workers
	case compileWorkers == 0:
		return 0
	}
	return DefaultExtractWorkers
}

func (e Extract) validate() error {
	if e.Workers != nil && (*e.Workers < 0 || *e.Workers > 64) {
		return errors.New("extract.workers: must be between 0 and 64")
	}
	return nil
}
