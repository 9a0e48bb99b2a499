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
	tokens := 0
	for i, in := range inputs {
		data[i] = item{Object: "embedding", Index: i, Embedding: FakeVector(req.Model, in, dims)}
		tokens += EmbedTokens(in)
	}
	out, _ := json.Marshal(map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
	writeJSON(w, http.StatusOK, string(out))
}

// Embedded is the number of texts the fake has embedded.
func (s *Server) Embedded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedded
}

// FakeVector is the fake's unit-length embedding of text under model: its
// features hashed into a vector, then turned by a fixed rotation of the
// model (random signs and Walsh-Hadamard transforms), so that it is dense
// as a real model's vectors are (their sign bits carry the meaning, which
// the SQLite shortlist relies on) while dot products stay as they were.
func FakeVector(model, text string, dims int) []float32 {
	size := 1
	for size < dims {
		size *= 2
	}
	v := make([]float64, size)
	hash := func(parts ...string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(model))
		for _, p := range parts {
			h.Write([]byte{0})
			h.Write([]byte(p))
		}
		return h.Sum64()
	}
	add := func(feature string, weight float64) {
		x := hash(feature)
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
	for round := range 2 {
		x := hash("rotation", string(rune('0'+round))) | 1
		for i := range v {
			x ^= x << 13 // xorshift: the rotation's signs
			x ^= x >> 7
			x ^= x << 17
			if x&1 == 1 {
				v[i] = -v[i]
			}
		}
		hadamard(v)
	}
	v = v[:dims]
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

// hadamard applies the (unnormalized) Walsh-Hadamard transform to v, whose
// length is a power of two.
func hadamard(v []float64) {
	for h := 1; h < len(v); h *= 2 {
		for i := 0; i < len(v); i += 2 * h {
			for j := i; j < i+h; j++ {
				a, b := v[j], v[j+h]
				v[j], v[j+h] = a+b, a-b
			}
		}
	}
}

// stopWords are left out of the fake's vectors, as a real model gives
// them little weight.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by can do does for from how i in is it of on or that the this to was what when where which who why will with you your`) {
		stopWords[w] = true
	}
}

// EmbedTokens is the token count the fake reports for one input, as it
// counts a chat message's: a token for every four bytes, and one more.
func EmbedTokens(in string) int { return len(in)/4 + 1 }
