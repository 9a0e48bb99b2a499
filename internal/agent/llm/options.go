package llm

// ModelOption is the safe metadata of a model for GET
// /api/v1/knowledge-agent/options. It has no key, endpoint, upstream name
// or header: only these fields ever leave the server.
type ModelOption struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Profile       string `json:"profile"`
	ContextWindow int    `json:"context_window"`
	MaxOutput     int    `json:"max_output"`
	NativeTools   bool   `json:"native_tools"`
	Reasoning     bool   `json:"reasoning"`
}

// Options lists every model's safe metadata, in configuration order; never
// nil, so it encodes as [] when no model is configured.
func (r *Registry) Options() []ModelOption {
	r = r.now()
	out := make([]ModelOption, 0, len(r.models))
	for _, m := range r.models {
		meta := m.Meta()
		out = append(out, ModelOption{ID: meta.ID, Name: meta.Name, Profile: meta.Profile,
			ContextWindow: meta.ContextWindow, MaxOutput: meta.MaxOutput,
			NativeTools: meta.NativeTools, Reasoning: meta.Reasoning})
	}
	return out
}
