// Package observe owns what operators watch: the Prometheus registry with
// every metric of the server, and the slog handler. It is a leaf: it imports
// nothing of ours, so any package may report to it, and every label value
// it accepts is bounded (route templates, configured model ids, our own
// codes), never a user name or a raw path.
package observe

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// registry holds our metrics and the Go and process collectors. It is not
// the client library's global one, so nothing imported registers into it
// behind our back.
var registry = prometheus.NewRegistry()

// Buckets for durations that run from milliseconds (requests) to minutes
// (model calls, compile jobs).
var (
	requestBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
	longBuckets    = []float64{.1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800}
)

var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_http_requests_total",
		Help: "HTTP requests answered, by route template, method and status.",
	}, []string{"route", "method", "status"})
	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "knowspace_http_request_duration_seconds", Buckets: requestBuckets,
		Help: "Time to answer an HTTP request (a chat stream counts until it ends), by route template and method.",
	}, []string{"route", "method"})
	streamsActive = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "knowspace_streams_active",
		Help: "Chat answers streaming now on this replica.",
	})
	turns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_turns_total",
		Help: "Chat turns ended, by outcome (complete, failed, stopped, interrupted) and reason (the finish reason or error code).",
	}, []string{"outcome", "reason"})
	toolCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_tool_calls_total",
		Help: "Agent tool calls, by tool and outcome (ok, error, duplicate, canceled).",
	}, []string{"tool", "outcome"})
	modelCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_model_calls_total",
		Help: "Model calls ended, by configured model id and outcome (ok or the error kind).",
	}, []string{"model", "outcome"})
	modelDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "knowspace_model_call_duration_seconds", Buckets: longBuckets,
		Help: "Time from a model call's start to its end, by model and outcome.",
	}, []string{"model", "outcome"})
	modelTokens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_model_tokens_total",
		Help: "Tokens the providers reported, by model and kind (prompt, completion).",
	}, []string{"model", "kind"})
	usageTokens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_usage_tokens_total",
		Help: "Tokens of model calls as usage accounting counts them (the provider's, or an estimate), by model, purpose (chat, compaction, compile, skill, openai, check, embedding) and direction (input, output). No user names: Settings and the admin usage screen break it down by user.",
	}, []string{"model", "purpose", "direction"})
	jobTransitions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_compile_job_transitions_total",
		Help: "Compile job state changes made on this replica, by job kind, from and to state (from is none for a new job).",
	}, []string{"kind", "from", "to"})
	jobQueueWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "knowspace_compile_job_queue_wait_seconds", Buckets: longBuckets,
		Help: "Time a compile job waited, from when it could run to when a worker claimed it, by kind.",
	}, []string{"kind"})
	jobRunTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "knowspace_compile_job_run_seconds", Buckets: longBuckets,
		Help: "Time a worker spent on a compile job, by kind and the state it left in.",
	}, []string{"kind", "outcome"})
	blobSweeps = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "knowspace_blob_sweeps_total",
		Help: "Orphaned-blob collections run, by outcome (ok, error).",
	}, []string{"outcome"})
	blobsSwept = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "knowspace_blob_sweep_removed_total",
		Help: "Orphaned blobs the collections removed.",
	})
)

func init() {
	registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		httpRequests, httpDuration, streamsActive, turns, toolCalls,
		modelCalls, modelDuration, modelTokens, usageTokens,
		jobTransitions, jobQueueWait, jobRunTime, blobSweeps, blobsSwept,
		sources,
	)
}

// Registry is the registry /metrics serves; tests gather from it.
func Registry() *prometheus.Registry { return registry }

// StreamOpened and StreamClosed bracket one chat stream.
func StreamOpened() { streamsActive.Inc() }

// StreamClosed ends what StreamOpened began.
func StreamClosed() { streamsActive.Dec() }

// TurnFinished counts a chat turn by how it ended.
func TurnFinished(outcome, reason string) {
	turns.WithLabelValues(outcome, bounded(reason)).Inc()
}

// ToolCall counts one agent tool call; tool must be a tool the agent
// offered (callers map anything else to "unknown").
func ToolCall(tool, outcome string) {
	toolCalls.WithLabelValues(bounded(tool), outcome).Inc()
}

// ModelCall records one finished model call; zero token counts are the
// provider reporting none.
func ModelCall(model, outcome string, d time.Duration, promptTokens, completionTokens int) {
	model = bounded(model)
	modelCalls.WithLabelValues(model, outcome).Inc()
	modelDuration.WithLabelValues(model, outcome).Observe(d.Seconds())
	if promptTokens > 0 {
		modelTokens.WithLabelValues(model, "prompt").Add(float64(promptTokens))
	}
	if completionTokens > 0 {
		modelTokens.WithLabelValues(model, "completion").Add(float64(completionTokens))
	}
}

// UsageTokens counts the tokens usage accounting kept for one call.
func UsageTokens(model, purpose string, input, output int) {
	model = bounded(model)
	usageTokens.WithLabelValues(model, purpose, "input").Add(float64(input))
	usageTokens.WithLabelValues(model, purpose, "output").Add(float64(output))
}

// JobTransition counts n jobs of kind moving from one state to another.
func JobTransition(kind, from, to string, n int) {
	if n > 0 {
		jobTransitions.WithLabelValues(bounded(kind), from, to).Add(float64(n))
	}
}

// JobClaimed records how long a job waited in the queue.
func JobClaimed(kind string, wait time.Duration) {
	jobQueueWait.WithLabelValues(bounded(kind)).Observe(max(wait, 0).Seconds())
}

// JobRan records how long a worker ran a job and the state it left in.
func JobRan(kind, outcome string, d time.Duration) {
	jobRunTime.WithLabelValues(bounded(kind), outcome).Observe(d.Seconds())
}

// BlobSweep counts one orphaned-blob collection.
func BlobSweep(removed int, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	blobSweeps.WithLabelValues(outcome).Inc()
	if removed > 0 {
		blobsSwept.Add(float64(removed))
	}
}

// maxLabel caps a label value: our codes and ids are short, so a longer
// one is a bug somewhere, and it must not bloat every scrape.
const maxLabel = 64

// bounded keeps a label value short and plain; anything else becomes
// "other", so a misbehaving provider cannot mint new series with odd text.
func bounded(v string) string {
	if v == "" {
		return "none"
	}
	if len(v) > maxLabel {
		return "other"
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || r == ':' || r == '/') {
			return "other"
		}
	}
	return v
}
