package fakellm

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
	"unicode"

	"github.com/knowspace/knowspace/internal/rank"
)

// EmbedDims is the length of the fake's embedding vectors unless a request
// asks for other dimensions.
const EmbedDims = 512

// serveEmbeddings answers POST /v1/embeddings like OpenAI: one vector per
// input, in order. A vector is the text's features hashed into its
// dimensions (word stems, the words' character trigrams, CJK bigrams), so
// texts that share words or parts of words lie close, deterministically,
// and the model's name seeds the hash: two models' vectors of one text
// differ, as two real models' do.
func (s *Server) serveEmbeddings(w http.ResponseWriter, body []byte) {
	var req struct {
		Model      string          `json:"model"`
		Input      json.RawMessage `json:"input"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, ErrorObject("body is not JSON: "+err.Error(), "invalid_request_error", nil))
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeJSON(w, http.StatusBadRequest, ErrorObject("input must be a string or an array of strings", "invalid_request_error", nil))
			return
		}
		inputs = []string{one}
	}
	for i, in := range inputs {
		if in == "" { // as OpenAI refuses it
			writeJSON(w, http.StatusBadRequest, ErrorObject(fmt.Sprintf("'$.input[%d]' is invalid: empty string", i), "invalid_request_error", nil))
			return
		}
	}
	dims := EmbedDims
	if req.Dimensions > 0 {
		dims = req.Dimensions
	}
	s.mu.Lock()
	s.embedded += len(inputs)
	s.mu.Unlock()
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(inputs))
	for i, in := range inputs {
		data[i] = item{Object: "embedding", Index: i, Embedding: FakeVector(req.Model, in, dims)}
	}
	out, _ := json.Marshal(map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": 0, "total_tokens": 0}})
	writeJSON(w, http.StatusOK, string(out))
}

// Embedded is the number of texts the fake has embedded.
func (s *Server) Embedded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedded
}

// FakeVector is the fake's unit-length embedding of text under model.
func FakeVector(model, text string, dims int) []float32 {
	v := make([]float64, dims)
	add := func(feature string, weight float64) {
		h := fnv.New64a()
		h.Write([]byte(model))
		h.Write([]byte{0})
		h.Write([]byte(feature))
		x := h.Sum64()
		sign := 1.0
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(dims)] += sign * weight
	}
	words, cjk := rank.Split(text)
	for _, w := range strings.FieldsFunc(strings.ToLower(words), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] {
			continue
		}
		add("w:"+rank.Stem(w), 1)
		r := []rune("^" + w + "$")
		for i := 0; i+3 <= len(r); i++ {
			add("t:"+string(r[i:i+3]), 0.5)
		}
	}
	for _, b := range strings.Fields(cjk) {
		add("c:"+b, 1)
	}
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	out := make([]float32, dims)
	if sum == 0 {
		out[0] = 1
		return out
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// stopWords are left out of the fake's vectors, as a real model gives
// them little weight.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by can do does for from how i in is it of on or that the this to was what when where which who why will with you your`) {
		stopWords[w] = true
	}
}
