package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
)

// benchDeltas is the length of the benchmark stream: many small deltas, the
// worst case for per-chunk overhead.
const benchDeltas = 100_000

// benchStream renders one long SSE body once; the fake writes it in a
// single step so the figures measure decoding, not the fake's flushing.
func benchStream() fakellm.Response {
	var sb strings.Builder
	sb.WriteString("data: " + fakellm.RoleChunk() + "\n\n")
	piece := fakellm.TextChunk("tok ")
	for range benchDeltas {
		sb.WriteString("data: ")
		sb.WriteString(piece)
		sb.WriteString("\n\n")
	}
	sb.WriteString("data: " + fakellm.FinishChunk("stop") + "\n\n")
	sb.WriteString("data: " + fakellm.UsageChunk(10, benchDeltas) + "\n\n")
	sb.WriteString("data: [DONE]\n\n")
	return fakellm.Stream(fakellm.Raw(sb.String()))
}

func benchFake(b *testing.B) *fakeProvider {
	f := newFake(b)
	resp := benchStream()
	f.fake.SetFunc(func(*fakellm.Request) fakellm.Response { return resp })
	return f
}

// BenchmarkStreamClient decodes the stream through Model.Stream: sseBody,
// go-openai's reader, raw chunk decoding and the block state machine.
func BenchmarkStreamClient(b *testing.B) {
	f := benchFake(b)
	m := f.model(b, ProfileOpenAI)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := m.Stream(context.Background(), userHi)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			c, err := s.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if c.Type == ChunkTextDelta {
				n++
			}
		}
		s.Close()
		if n != benchDeltas {
			b.Fatalf("got %d deltas", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchDeltas, "ns/delta")
}

// BenchmarkStreamDirectDecode is the floor a hand-written client would
// reach: scan lines and unmarshal each data payload into a minimal struct.
func BenchmarkStreamDirectDecode(b *testing.B) {
	f := benchFake(b)
	body := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := http.Post(f.srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		n := 0
		for sc.Scan() {
			line := sc.Bytes()
			if !bytes.HasPrefix(line, []byte("data: ")) || bytes.Equal(line[6:], []byte("[DONE]")) {
				continue
			}
			var c struct {
				Choices []struct {
					Delta struct {
						Content string `json:"content"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal(line[6:], &c); err != nil {
				b.Fatal(err)
			}
			if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
				n++
			}
		}
		resp.Body.Close()
		if n != benchDeltas {
			b.Fatalf("got %d deltas", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchDeltas, "ns/delta")
}

// BenchmarkStreamRawRead only moves the bytes: the transport's cost.
func BenchmarkStreamRawRead(b *testing.B) {
	f := benchFake(b)
	body := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := http.Post(f.srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchDeltas, "ns/delta")
}
