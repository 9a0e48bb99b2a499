// Package fakellm is the project's fake OpenAI-compatible LLM server. It backs
// unit tests, browser tests and benchmarks so that no test ever calls a real
// provider.
//
// A Server is a plain http.Handler (serve it with httptest.NewServer or
// http.ListenAndServe) that answers:
//
//   - POST /v1/chat/completions (also /chat/completions): streaming and
//     non-streaming chat completions;
//   - GET /v1/models: the configured model names;
//   - GET /api/tags: the same names in Ollama's shape, for discovery tests.
//
// Each chat request is answered by the next queued Response (Push), else by
// the function set with SetFunc, else by DefaultScript. A Response is a list
// of Steps — raw SSE bytes, delays, or a connection reset — plus how to write
// them: in flushed pieces of a few bytes (so lines and multi-byte characters
// are cut across reads), with CRLF line endings, after a slow first byte, or
// as an HTTP error with Retry-After. Helpers in chunks.go build the wire
// chunks real providers send.
//
// The server records every request it received (Requests) and reports every
// request whose client went away before its script finished (Aborted,
// AbortCount), so tests can prove that cancellation reached the upstream
// connection.
//
// # Default script
//
// Without a queued response or a function, DefaultScript answers like a very
// simple agent, so the UI can be tried without a real key:
//
//   - A generate-skill request (a system prompt opening "You write compile
//     skills for Knowspace.") is answered with a skill draft built from the
//     text between <description> tags: a ```json fence holding name (the
//     first words), description and prompt.
//   - If the request offers a tool named "ls" (or "read") and the last user
//     message contains "use ls" (or "use read"), and no tool result has come
//     back since that message, it first streams one tool call with
//     arguments {"uri": U}, where U is the first kb:// URI found in the user
//     message or the system prompt ("kb://" when there is none).
//   - Else, if the request offers a tool named "search" and the last user
//     message asks to find or search (the word "find" or "search", or 查找
//     or 搜索, outside kb:// URIs), it calls search with that URI and a query:
//     a phrase in double or CJK quotes if there is one, else the words after
//     the verb up to the end of the clause, from "for" on when there is one
//     and up to "and" or "then" ("search my notes for budget plans and list
//     them" asks for "budget plans").
//   - After an ls result that shows a compiled folder's overview (the
//     folder's own .overview.md item, else the first item's overview_uri),
//     it reads that overview first, once per question, as the system
//     prompt asks an agent to before opening raw files.
//   - After a search result it answers how many hits it found for the
//     query, one line per file with its first hit's snippet, and "Sources: "
//     with each file once, at the line of its first hit (URI#L<n>).
//   - After another tool result it answers "Tool result:" followed by the first 200
//     characters of that result, then "You asked: " and the question, then
//     "Sources: " and the kb:// URIs the tool results named (a read from the
//     start of a file as URI#L1), so answers cite what they read.
//   - Otherwise it echoes the last user message back as streamed text, a few
//     characters per chunk.
//   - A usage chunk is sent when stream_options.include_usage is set, then the
//     finish reason and data: [DONE].
//
// Markers in the last user message make the default script misbehave on
// purpose, for browser tests of broken streams: "[[truncate]]" ends the stream
// after a few chunks without [DONE], "[[reset]]" resets the connection there,
// "[[error]]" sends an error object mid-stream, "[[429]]" answers HTTP 429
// with Retry-After: 1, "[[slow]]" waits 200 ms between chunks and "[[hang]]"
// keeps the connection open after the first chunk until the client leaves.
package fakellm
