package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	date := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		name       string
		resp       fakellm.Response
		kind       ErrorKind
		status     int
		retryAfter time.Duration
		apiStatus  int
	}{
		{"401 bad key", fakellm.HTTPError(401, "Incorrect API key provided: sk-te***789"), KindAuth, 401, 0, 502},
		{"403 forbidden", fakellm.HTTPError(403, "forbidden"), KindAuth, 403, 0, 502},
		{"404 unknown upstream model", fakellm.HTTPError(404, "The model does not exist"), KindModelNotFound, 404, 0, 502},
		{"429 with Retry-After seconds", fakellm.RateLimited("7"), KindRateLimited, 429, 7 * time.Second, 429},
		{"429 with Retry-After date", fakellm.RateLimited(date), KindRateLimited, 429, 30 * time.Second, 429},
		{"429 without Retry-After", fakellm.HTTPError(429, "slow down"), KindRateLimited, 429, 0, 429},
		{"500", fakellm.HTTPError(500, "boom"), KindServer, 500, 0, 502},
		{"503 with a non-JSON body", fakellm.Response{Status: 503, Body: "<html>bad gateway</html>"}, KindServer, 503, 0, 502},
		{"400 bad request", fakellm.HTTPError(400, "messages: invalid"), KindBadRequest, 400, 0, 502},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			m := f.model(t, ProfileOpenAI)
			f.fake.Push(tc.resp)
			_, err := m.Stream(context.Background(), userHi)
			e := wantKind(t, err, tc.kind)
			if e.Status != tc.status {
				t.Fatalf("status %d, want %d", e.Status, tc.status)
			}
			if d := e.RetryAfter - tc.retryAfter; d < -5*time.Second || d > 0 { // HTTP dates have 1 s precision
				t.Fatalf("retry after %v, want %v", e.RetryAfter, tc.retryAfter)
			}
			if got := e.APIError().Status; got != tc.apiStatus {
				t.Fatalf("api status %d, want %d", got, tc.apiStatus)
			}
			if tc.kind == KindAuth && containsAny(err.Error(), "sk-te") {
				t.Fatalf("auth error repeats the upstream key hint: %v", err)
			}
		})
	}
}

func TestRetryableKinds(t *testing.T) {
	t.Parallel()
	for kind, want := range map[ErrorKind]bool{KindRateLimited: true, KindServer: true, KindTimeout: true,
		KindIncomplete: true, KindAuth: false, KindModelNotFound: false, KindBadRequest: false, KindCanceled: false} {
		if got := (&Error{Kind: kind}).Retryable(); got != want {
			t.Errorf("%s retryable = %v", kind, got)
		}
	}
}

func TestConnectError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	reg, err := NewRegistry([]ModelConfig{{ID: "x", Profile: ProfileOpenAICompatible, BaseURL: url + "/v1",
		ContextWindow: 8192, OutputReserve: 1024}}, RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Stream(context.Background(), "x", userHi)
	wantKind(t, err, KindConnect)
}

func TestTimeouts(t *testing.T) {
	t.Parallel()
	short := func(f *fakeProvider) *Model {
		reg, err := NewRegistry([]ModelConfig{{ID: "t", Profile: ProfileOpenAI, BaseURL: f.srv.URL + "/v1",
			APIKey: testKey, ContextWindow: 8192, OutputReserve: 1024}},
			RegistryOptions{Timeouts: Timeouts{FirstByte: 150 * time.Millisecond, Idle: 150 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := reg.Lookup("t")
		return m
	}
	t.Run("slow first byte within the limit", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		r := fakellm.TextStream("late")
		r.FirstByteDelay = 50 * time.Millisecond
		f.fake.Push(r)
		if res := drain(t, short(f), userHi); res.err != nil || res.text != "late" {
			t.Fatalf("got %+v", res)
		}
	})
	t.Run("no first byte", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		r := fakellm.TextStream("never")
		r.FirstByteDelay = 5 * time.Second
		f.fake.Push(r)
		start := time.Now()
		res := drain(t, short(f), userHi)
		wantKind(t, res.err, KindTimeout)
		if time.Since(start) > 2*time.Second {
			t.Fatalf("timeout took %v", time.Since(start))
		}
	})
	t.Run("silent mid-stream", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		f.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Sleep(5*time.Second), fakellm.Done()))
		res := drain(t, short(f), userHi)
		wantKind(t, res.err, KindTimeout)
		if res.text != "a" {
			t.Fatalf("text before the stall lost: %q", res.text)
		}
	})
	t.Run("keep-alives count as activity", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		steps := []fakellm.Step{fakellm.Data(fakellm.TextChunk("a"))}
		for range 6 {
			steps = append(steps, fakellm.Sleep(50*time.Millisecond), fakellm.Comment("keep-alive"))
		}
		steps = append(steps, fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done())
		f.fake.Push(fakellm.Stream(steps...))
		if res := drain(t, short(f), userHi); res.err != nil {
			t.Fatalf("got %v", res.err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		f.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Sleep(5*time.Second)))
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		s, err := f.model(t, ProfileOpenAI).Stream(ctx, userHi)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for {
			if _, err = s.Recv(); err != nil {
				break
			}
		}
		wantKind(t, err, KindTimeout)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("deadline not in chain: %v", err)
		}
	})
}

// TestCancelClosesUpstream proves that cancelling the caller's context
// closes the provider connection: the fake sees its client leave.
func TestCancelClosesUpstream(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"cancel context", "close stream"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.fake.Push(fakellm.Response{Steps: []fakellm.Step{fakellm.Data(fakellm.TextChunk("first"))}, Hold: true})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := f.model(t, ProfileOpenAI).Stream(ctx, userHi)
			if err != nil {
				t.Fatal(err)
			}
			for {
				c, err := s.Recv()
				if err != nil {
					t.Fatal(err)
				}
				if c.Type == ChunkTextDelta {
					break
				}
			}
			recvErr := make(chan error, 1)
			if how == "cancel context" {
				go func() {
					_, err := s.Recv() // blocked in a read when the cancel lands
					recvErr <- err
				}()
				time.Sleep(20 * time.Millisecond)
			}
			start := time.Now()
			if how == "cancel context" {
				cancel()
			} else {
				_ = s.Close()
			}
			select {
			case <-f.fake.Aborted():
				if d := time.Since(start); d > 100*time.Millisecond {
					t.Fatalf("upstream saw the close after %v", d)
				}
			case <-time.After(time.Second):
				t.Fatal("upstream connection still open after 1s")
			}
			if how == "cancel context" {
				err := <-recvErr
				wantKind(t, err, KindCanceled)
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("context.Canceled not in chain: %v", err)
				}
				_ = s.Close()
			}
		})
	}
}

// TestAPIErrorCodesAreTheStreamCodes: a failure before any byte answers
// the same code as the stream's error event and the job's error.
func TestAPIErrorCodesAreTheStreamCodes(t *testing.T) {
	t.Parallel()
	for _, k := range []ErrorKind{KindAuth, KindModelNotFound, KindRateLimited, KindBadRequest, KindServer,
		KindStream, KindProtocol, KindIncomplete, KindTimeout, KindConnect, KindCanceled} {
		e := &Error{Kind: k, Message: "m"}
		if got := e.APIError().Code.String(); got != e.Code() {
			t.Errorf("kind %s answers %q before the stream, %q in it", k, got, e.Code())
		}
	}
}
