package main

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// samples collects the latencies of one operation during one step.
type samples struct {
	mu     sync.Mutex
	times  []time.Duration
	errors int
	first  string // the first error, to say what went wrong
}

func (s *samples) add(d time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.errors++
		if s.first == "" {
			s.first = err.Error()
		}
		return
	}
	s.times = append(s.times, d)
}

// summary is what a step reports for one operation.
type summary struct {
	Count, Errors int
	P50, P95, P99 time.Duration
	FirstError    string
}

func (s *samples) summary() summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := slices.Clone(s.times)
	slices.Sort(t)
	return summary{Count: len(t), Errors: s.errors, P50: quantile(t, 0.50), P95: quantile(t, 0.95), P99: quantile(t, 0.99), FirstError: s.first}
}

// quantile of sorted durations, nearest rank.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
