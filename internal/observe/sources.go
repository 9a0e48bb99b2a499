package observe

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// sourceTimeout bounds the database queries a scrape makes.
const sourceTimeout = 5 * time.Second

// Sources read gauges whose truth is in the database, shared by every
// replica, at scrape time: the wiring installs them (observe must not
// import the store).
type Sources struct {
	// BlobBytes sums the distinct blobs the files reference.
	BlobBytes func(context.Context) (int64, error)
	// JobStates counts compile jobs by state.
	JobStates func(context.Context) (map[string]int64, error)
}

var (
	blobBytesDesc = prometheus.NewDesc("knowspace_blob_bytes",
		"Bytes of the distinct blobs that file versions reference (the database's view of the blob store).", nil, nil)
	jobStatesDesc = prometheus.NewDesc("knowspace_compile_jobs",
		"Compile jobs in the database by state (all replicas).", []string{"state"}, nil)
)

type sourceCollector struct {
	mu  sync.Mutex
	src Sources
}

var sources = &sourceCollector{}

// SetSources installs the database readers; a zero Sources removes them.
func SetSources(s Sources) {
	sources.mu.Lock()
	defer sources.mu.Unlock()
	sources.src = s
}

func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- blobBytesDesc
	ch <- jobStatesDesc
}

// Collect reads the sources; one that fails is left out of the scrape (and
// logged) rather than reported as zero.
func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	src := c.src
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), sourceTimeout)
	defer cancel()
	if src.BlobBytes != nil {
		if n, err := src.BlobBytes(ctx); err != nil {
			slog.Warn("metrics: blob bytes", "err", err)
		} else {
			ch <- prometheus.MustNewConstMetric(blobBytesDesc, prometheus.GaugeValue, float64(n))
		}
	}
	if src.JobStates != nil {
		if states, err := src.JobStates(ctx); err != nil {
			slog.Warn("metrics: compile jobs by state", "err", err)
		} else {
			for state, n := range states {
				ch <- prometheus.MustNewConstMetric(jobStatesDesc, prometheus.GaugeValue, float64(n), bounded(state))
			}
		}
	}
}
