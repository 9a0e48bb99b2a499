package fakellm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// LongAnswer scripts an answer of n short text deltas, the load the relay
// benchmarks push through each door.
func LongAnswer(n int) Response {
	steps := []Step{Data(RoleChunk())}
	for i := 0; i < n; i++ {
		steps = append(steps, Data(TextChunk(fmt.Sprintf("w%d ", i%10))))
	}
	steps = append(steps, Data(FinishChunk("stop")), Data(UsageChunk(10, n)), Done())
	return Stream(steps...)
}

// Timed is what one streamed request cost a client: the LongAnswer deltas
// that arrived (a server may join queued ones into one event), the events
// that carried them, when the first came and when the stream ended.
type Timed struct {
	Deltas, Events int
	First, Whole   time.Duration
}

// TimeStream posts body to url (with a bearer token when given) and reads
// the SSE answer as a client does; decode also parses every data line's
// JSON, as a real client must, so the cost of the server's chunk size shows.
// marker ends where a LongAnswer text begins (`"content":"w`).
func TimeStream(client *http.Client, url, token, body, marker string, decode bool) (Timed, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return Timed{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	t, _, err := TimeRequest(client, req, marker, decode)
	return t, err
}

// TimeRequest is TimeStream for a request the caller built (a GET that
// resumes a stream); it also returns the first data line (the start event).
func TimeRequest(client *http.Client, req *http.Request, marker string, decode bool) (Timed, []byte, error) {
	url := req.URL.String()
	var first []byte
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return Timed{}, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Timed{}, nil, fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	var t Timed
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) || bytes.Equal(line, []byte("data: [DONE]")) {
			continue
		}
		if first == nil {
			first = bytes.Clone(line[len("data: "):])
		}
		if decode {
			var v map[string]any
			if err := json.Unmarshal(line[len("data: "):], &v); err != nil {
				return t, first, fmt.Errorf("%s: bad event JSON: %w", url, err)
			}
		}
		if i := bytes.Index(line, []byte(marker)); i >= 0 {
			if t.Events == 0 {
				t.First = time.Since(start)
			}
			t.Events++
			text := line[i+len(marker)-1:]
			if end := bytes.IndexByte(text, '"'); end >= 0 {
				text = text[:end]
			}
			// Each LongAnswer delta holds one "w".
			t.Deltas += bytes.Count(text, []byte("w"))
		}
	}
	t.Whole = time.Since(start)
	return t, first, sc.Err()
}
