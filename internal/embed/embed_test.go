package embed_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
)

// TestChunkFollowsStructure: chunks start at headings, stay near the
// token budget, cover every line of the text, and cut a paragraph or a
// Chinese run longer than a chunk.
func TestChunkFollowsStructure(t *testing.T) {
	long := strings.Repeat("Tokens are counted roughly, four letters each. ", 300)
	zh := strings.Repeat("全文检索把问题切成词并给文件打分。", 200)
	text := "# Install\n\nRun make run to start.\n\nThen open the URL.\n\n## Configure\n\nEdit config.yaml.\n\n" + long + "\n\n" + zh + "\n\fPage two starts here.\n"
	ps := embed.Chunk(text)
	if len(ps) < 5 {
		t.Fatalf("%d pieces, want the long paragraph and the Chinese run cut: %+v", len(ps), ps)
	}
	if ps[0].Heading != "Install" || !strings.HasPrefix(text[ps[0].Start:], "# Install") {
		t.Fatalf("first piece %+v %q", ps[0], text[ps[0].Start:ps[0].End])
	}
	covered := make([]bool, len(text))
	for i, p := range ps {
		if tk := embed.Tokens(text[p.Start:p.End]); tk > embed.ChunkTokens+embed.ChunkTokens/4 {
			t.Errorf("piece %d holds %d tokens", i, tk)
		}
		if want := strings.Count(text[:p.Start], "\n") + 1; p.Line != want {
			t.Errorf("piece %d line %d, want %d", i, p.Line, want)
		}
		for j := p.Start; j < p.End; j++ {
			covered[j] = true
		}
	}
	for i, c := range text {
		if !covered[i] && !strings.ContainsRune(" \n\f", c) {
			t.Fatalf("byte %d (%q) is in no piece", i, text[i:min(len(text), i+20)])
		}
	}
	var configure bool
	for _, p := range ps {
		configure = configure || (p.Heading == "Configure" && strings.Contains(text[p.Start:p.End], "config.yaml"))
	}
	if !configure {
		t.Fatal("no piece under the heading Configure holds its paragraph")
	}
	if last := ps[len(ps)-1]; !strings.Contains(text[last.Start:last.End], "Page two") {
		t.Fatalf("last piece %q", text[last.Start:last.End])
	}
	if embed.Chunk("") != nil || len(embed.Chunk("one line")) != 1 {
		t.Fatal("empty text has no piece; one line is one piece")
	}
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestClientEmbedsWithTheFake: the client sends OpenAI's request, gets
// unit vectors in order, learns the dimensions from the first answer, and
// texts sharing words lie closer than unrelated ones.
func TestClientEmbedsWithTheFake(t *testing.T) {
	srv := httptest.NewServer(fakellm.New(fakellm.Options{}))
	defer srv.Close()
	c := embed.New(embed.Config{ID: "fake-embed", BaseURL: srv.URL + "/v1"}, nil)
	vs, err := c.Embed(context.Background(), []string{"backup the database nightly", "how are database backups made", "the cat sat on the mat"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || len(vs[0]) != fakellm.EmbedDims {
		t.Fatalf("%d vectors of %d", len(vs), len(vs[0]))
	}
	for _, v := range vs {
		if n := dot(v, v); math.Abs(n-1) > 1e-5 {
			t.Fatalf("length² %f", n)
		}
	}
	if near, far := dot(vs[0], vs[1]), dot(vs[0], vs[2]); near <= far+0.1 {
		t.Fatalf("shared words %.3f, unrelated %.3f", near, far)
	}
	key, err := c.Key(context.Background())
	if err != nil || key != "fake-embed|fake-embed|512" {
		t.Fatalf("key %q %v", key, err)
	}
	short := embed.New(embed.Config{ID: "short", Model: "fake-embed", BaseURL: srv.URL + "/v1", Dimensions: 64}, nil)
	if vs, err := short.Embed(context.Background(), []string{"x"}); err != nil || len(vs[0]) != 64 {
		t.Fatalf("configured dimensions: %v", err)
	}
}

// TestClientReportsUpstreamFaults: a refused input says the status and the
// upstream's message; an unreachable server is not the input's fault, and
// its error does not quote the base URL.
func TestClientReportsUpstreamFaults(t *testing.T) {
	srv := httptest.NewServer(fakellm.New(fakellm.Options{}))
	defer srv.Close()
	c := embed.New(embed.Config{ID: "bad", BaseURL: srv.URL + "/v1"}, nil)
	_, err := c.Embed(context.Background(), []string{"x", ""})
	var ee *embed.Error
	if !errors.As(err, &ee) || ee.Status != 400 || !ee.Input || !strings.Contains(err.Error(), "input[1]' is invalid") {
		t.Fatalf("400: %v", err)
	}
	srv.Close()
	_, err = embed.New(embed.Config{ID: "gone", BaseURL: srv.URL + "/v1"}, nil).Embed(context.Background(), []string{"x"})
	if !errors.As(err, &ee) || ee.Input || strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("unreachable: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	good := embed.Config{ID: "e", BaseURL: "http://127.0.0.1:11434/v1"}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []embed.Config{
		{BaseURL: good.BaseURL},
		{ID: "e", BaseURL: "ftp://x"},
		{ID: "e", BaseURL: good.BaseURL, Dimensions: -1},
		{ID: "e", BaseURL: good.BaseURL, APIKey: "k", APIKeyEnv: "K"},
		{ID: "e", BaseURL: good.BaseURL, BatchSize: 99999},
	} {
		if c.Validate() == nil {
			t.Errorf("%+v validated", c)
		}
	}
}

// TestClientReportsUsage: the provider's prompt_tokens when it sends them
// (the fake does), else an estimate marked as one; priced per million.
func TestClientReportsUsage(t *testing.T) {
	type got struct {
		model     string
		tokens    int
		estimated bool
		cost      float64
	}
	var calls []got
	record := func(model string, tokens int, estimated bool, cost float64) {
		calls = append(calls, got{model, tokens, estimated, cost})
	}
	srv := httptest.NewServer(fakellm.New(fakellm.Options{}))
	defer srv.Close()
	c := embed.New(embed.Config{ID: "e", BaseURL: srv.URL + "/v1", PriceInput: 100}, nil)
	c.OnUsage = record
	texts := []string{"tidal energy", "wave power in the North Sea"}
	if _, err := c.Embed(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	want := fakellm.EmbedTokens(texts[0]) + fakellm.EmbedTokens(texts[1])
	if len(calls) != 1 || calls[0] != (got{"e", want, false, float64(want) * 100 / 1e6}) {
		t.Fatalf("usage %+v, want %d tokens", calls, want)
	}

	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[1,0]}]}`)
	}))
	defer silent.Close()
	c = embed.New(embed.Config{ID: "quiet", BaseURL: silent.URL}, nil)
	c.OnUsage = record
	if _, err := c.Embed(context.Background(), []string{"twelve bytes"}); err != nil {
		t.Fatal(err)
	}
	if calls[1] != (got{"quiet", 4, true, 0}) {
		t.Fatalf("estimate %+v", calls[1])
	}
}
