// Command load answers "how many users does one replica serve": it signs in
// simulated users who browse, read, search and ask the agent with a think
// time between actions, raises their number step by step, and reports each
// operation's latency against the same operation measured alone at the
// start of the run. Without -url it starts the binary on a fresh data
// directory with the built-in fake LLM (make load).
package main

import (
	"context"
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
	flag.StringVar(&steps, "users", "10,50,100,200", "numbers of simultaneous users, one step each")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long each step lasts")
	flag.DurationVar(&o.think, "think", time.Second, "mean pause between a user's actions")
	flag.DurationVar(&o.readP95, "read-p95", 250*time.Millisecond, "served: browse, read and search p95 at most this")
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
	base := o.url
	if base == "" {
		srv, err := startServer(o.bin, o.dsn, o.password)
		if err != nil {
			return err
		}
		defer srv.stop()
		base = srv.base
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}, Timeout: time.Minute}
	users, err := signInUsers(ctx, base, o.password, o.steps[len(o.steps)-1], hc)
	if err != nil {
		return err
	}
	fmt.Printf("server %s, %d users signed in; think time %v, %v per step\n\n", base, len(users), o.think, o.duration)

	alone := baseline(ctx, users[0])
	fmt.Println("alone (one user, 20 calls each, p50 ms):")
	for _, op := range opNames {
		fmt.Printf("  %-12s %s\n", op, ms(alone[op].P50))
	}
	fmt.Printf("\n%6s  %-12s %7s %6s %8s %8s %8s %10s\n", "users", "operation", "calls", "errors", "p50 ms", "p95 ms", "p99 ms", "p95/alone")
	served := 0
	for _, n := range o.steps {
		res := step(ctx, users[:n], o.duration, o.think)
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
	fmt.Printf("\nserved: %d users (browse/read/search p95 ≤ %v, agent first text p95 ≤ %v, no errors)\n", served, o.readP95, o.streamP95)
	return nil
}

var opNames = []string{"ls", "read", "search", "stream_text", "stream"}

// pick chooses what a user does next: mostly browsing and reading, as in
// the web app, with a question to the agent now and then.
func pick(r *rand.Rand) string {
	switch p := r.IntN(100); {
	case p < 40:
		return "ls"
	case p < 70:
		return "read"
	case p < 90:
		return "search"
	}
	return "stream"
}

// once runs one operation and records it.
func once(ctx context.Context, c *client, op string, res map[string]*samples) {
	start := time.Now()
	var err error
	switch op {
	case "ls":
		err = c.ls(ctx)
	case "read":
		err = c.read(ctx)
	case "search":
		err = c.search(ctx)
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
	for _, op := range []string{"ls", "read", "search", "stream"} {
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
