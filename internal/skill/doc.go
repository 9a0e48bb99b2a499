// Package skill owns compile skills: named prompts that shape how compile
// writes a file's summary and a folder's overview and abstract. It holds
// the built-in skills, validates and stores the ones users write, resolves
// the skill a compile request names (by id, or a built-in by name), asks a
// model to draft a skill from a description, and previews the full prompt
// a skill produces.
//
// A skill only shapes the prompt. It is text appended to compile's system
// prompt, nothing more: it adds no tools, runs no code, and the model it
// steers sees only the file being summarized (for an overview, the
// summaries of that folder's files; for an abstract, that overview). A job
// copies the skill's name, id and prompt into its configuration snapshot
// at enqueue, so editing or deleting a skill later changes neither queued
// jobs nor their retries, and a generated file's provenance names the
// skill and a hash of the prompt it was written with.
package skill
