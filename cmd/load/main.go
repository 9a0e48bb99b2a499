// Command load answers "how many users does one replica serve": it signs in
// simulated users who browse, read, search, upload, compile and ask the
// agent with a think time between actions, raises their number step by
// step, and reports each operation's latency against the same operation
// measured alone at the start of the run, the requests per second and the
// servers' memory. Without -url it starts the binary (-replicas of it on
// one -dsn) on a fresh data directory with the built-in fake LLM (make load).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

type options struct {
	url, bin, dsn, password string
	replicas                int
	steps                   []int
	duration, think         time.Duration
	readP95, streamP95      time.Duration
}

func main() {
	var o options
	var steps string
	flag.StringVar(&o.url, "url", "", "a running server (default: start -bin with the fake LLM)")
	flag.StringVar(&o.bin, "bin", "bin/knowspace", "the server binary to start when -url is empty")
	flag.StringVar(&o.dsn, "dsn", "", "KB_DATABASE_DSN for the started server (default: SQLite in a temporary directory)")
	flag.StringVar(&o.password, "admin-password", "load-admin-password", "the admin password (-url: the server's)")
	flag.IntVar(&o.replicas, "replicas", 1, "replicas to start on -dsn when -url is empty; users spread over them")
	flag.StringVar(&steps, "users", "10,50,100,200", "numbers of simultaneous users, one step each")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long each step lasts")
	flag.DurationVar(&o.think, "think", time.Second, "mean pause between a user's actions")
	flag.DurationVar(&o.readP95, "read-p95", 200*time.Millisecond, "served: every call but the stream p95 at most this")
	flag.DurationVar(&o.streamP95, "stream-p95", time.Second, "served: the agent's first text p95 at most this")
	flag.Parse()
	for _, s := range strings.Split(steps, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "load: -users: %q is not a positive number\n", s)
			os.Exit(2)
		}
		o.steps = append(o.steps, n)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ctx := context.Background()
	bases := []string{o.url}
	var servers []*server
	if o.url == "" {
		var err error
		servers, err = startServers(o.bin, o.dsn, o.password, o.replicas)
		if err != nil {
			return err
		}
		defer stopAll(servers)
		bases = bases[:0]
		for _, s := range servers {
			bases = append(bases, s.base)
		}
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}, Timeout: time.Minute}
	users, err := signInUsers(ctx, bases, o.password, o.steps[len(o.steps)-1], hc)
	if err != nil {
		return err
	}
	db := "SQLite"
	if o.dsn != "" {
		db = "PostgreSQL"
	}
	fmt.Printf("servers %s on %s, %d users signed in; think time %v, %v per step\n\n", strings.Join(bases, " "), db, len(users), o.think, o.duration)

	alone := baseline(ctx, users[0])
	fmt.Println("alone (one user, 20 calls each, p50 ms):")
	for _, op := range opNames {
		fmt.Printf("  %-12s %s\n", op, ms(alone[op].P50))
	}
	fmt.Printf("\n%6s  %-12s %7s %6s %8s %8s %8s %10s\n", "users", "operation", "calls", "errors", "p50 ms", "p95 ms", "p99 ms", "p95/alone")
	served := 0
	for _, n := range o.steps {
		res := step(ctx, users[:n], o.duration, o.think)
		calls := 0
		for _, op := range opNames {
			if op != "stream_text" {
				calls += res[op].Count + res[op].Errors
			}
		}
		fmt.Printf("%6d  %.1f requests/s%s\n", n, float64(calls)/o.duration.Seconds(), memory(servers))
		ok := true
		for _, op := range opNames {
			s := res[op]
			ratio := "-"
			if alone[op].P50 > 0 {
				ratio = fmt.Sprintf("%.2f", float64(s.P95)/float64(alone[op].P50))
			}
			fmt.Printf("%6d  %-12s %7d %6d %8s %8s %8s %10s\n", n, op, s.Count, s.Errors, ms(s.P50), ms(s.P95), ms(s.P99), ratio)
			if s.Errors > 0 {
				fmt.Printf("        first error: %s\n", s.FirstError)
			}
			limit := o.readP95
			if op == "stream_text" || op == "stream" {
				limit = o.streamP95
			}
			if s.Errors > 0 || op != "stream" && s.P95 > limit {
				ok = false
			}
		}
		if ok {
			served = n
		}
	}
	fmt.Printf("\nserved: %d users (every call but the stream p95 ≤ %v, agent first text p95 ≤ %v, no errors)\n", served, o.readP95, o.streamP95)
	return nil
}

var opNames = []string{"ls", "read", "search", "upload", "compile", "stream_text", "stream"}

// memory reports each started replica's resident memory.
func memory(servers []*server) string {
	var parts []string
	for i, s := range servers {
		parts = append(parts, fmt.Sprintf("replica %d %.0f MiB", i+1, float64(s.rss())/(1<<20)))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", resident memory: " + strings.Join(parts, ", ")
}

// pick chooses what a user does next: mostly browsing and reading, as in
// the web app, with a question to the agent now and then.
func pick(r *rand.Rand) string {
	switch p := r.IntN(100); {
	case p < 35:
		return "ls"
	case p < 60:
		return "read"
	case p < 78:
		return "search"
	case p < 85:
		return "upload"
	case p < 90:
		return "compile"
	}
	return "stream"
}

// once runs one operation and records it.
func once(ctx context.Context, c *client, op string, res map[string]*samples) {
	if op == "compile" && c.uploaded == "" {
		// A user compiles what they uploaded, and an unchanged file is
		// not compiled twice: upload first.
		once(ctx, c, "upload", res)
	}
	start := time.Now()
	var err error
	switch op {
	case "ls":
		err = c.ls(ctx)
	case "read":
		err = c.read(ctx)
	case "search":
		err = c.search(ctx)
	case "upload":
		c.uploads++
		c.uploaded, err = c.upload(ctx, c.uploads)
	case "compile":
		uri := c.uploaded
		c.uploaded = ""
		if uri == "" {
			err = errors.New("compile: the upload before it failed")
			break
		}
		err = c.compile(ctx, uri)
	case "stream":
		var first time.Duration
		first, err = c.stream(ctx)
		res["stream_text"].add(first, err)
	}
	res[op].add(time.Since(start), err)
}

func newResults() map[string]*samples {
	res := map[string]*samples{}
	for _, op := range opNames {
		res[op] = &samples{}
	}
	return res
}

func summarize(res map[string]*samples) map[string]summary {
	out := map[string]summary{}
	for op, s := range res {
		out[op] = s.summary()
	}
	return out
}

func baseline(ctx context.Context, c *client) map[string]summary {
	res := newResults()
	for _, op := range []string{"ls", "read", "search", "upload", "compile", "stream"} {
		for range 20 {
			once(ctx, c, op, res)
		}
	}
	return summarize(res)
}

// step lets n users act for d, each pausing a random think time (uniform
// between half and one and a half times the mean) between actions.
func step(ctx context.Context, users []*client, d, think time.Duration) map[string]summary {
	res := newResults()
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for i, c := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			// Spread the first actions over one think time.
			time.Sleep(time.Duration(r.Int64N(int64(think) + 1)))
			for time.Now().Before(end) {
				once(ctx, c, pick(r), res)
				time.Sleep(think/2 + time.Duration(r.Int64N(int64(think)+1)))
			}
		}()
	}
	wg.Wait()
	return summarize(res)
}
