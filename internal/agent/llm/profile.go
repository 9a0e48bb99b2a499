package llm

// Profile describes how to talk to one family of OpenAI-compatible
// endpoints. Stream parsing is the same for all profiles (it tolerates every
// quirk in PROVIDER-QUIRKS.md); profiles differ in defaults and in what the
// request carries.
type Profile struct {
	Name string
	// DefaultBaseURL is used when a model sets no base_url.
	DefaultBaseURL string
	// KeyRequired rejects a model of this profile without a key.
	KeyRequired bool
	// StreamUsage sends stream_options.include_usage so the provider reports
	// usage in a final chunk.
	StreamUsage bool
	// MaxCompletionTokens sends the output cap as max_completion_tokens
	// (OpenAI's current name; its reasoning models reject max_tokens).
	MaxCompletionTokens bool
	// EchoReasoning sends an assistant message's reasoning back as
	// reasoning_content: DeepSeek thinking mode wants it back within a turn
	// that uses tools.
	EchoReasoning bool
	// EchoToolCallExtra sends a call's provider extra (Gemini 3's
	// extra_content.google.thought_signature) back on the next turn; Gemini
	// rejects the follow-up request without it.
	EchoToolCallExtra bool
}

// Profile names accepted in the configuration.
const (
	ProfileOpenAI           = "openai"
	ProfileDeepSeek         = "deepseek"
	ProfileQwen             = "qwen"
	ProfileOllama           = "ollama"
	ProfileGemini           = "gemini"
	ProfileOpenAICompatible = "openai-compatible"
)

var profiles = map[string]Profile{
	ProfileOpenAI: {Name: ProfileOpenAI, DefaultBaseURL: "https://api.openai.com/v1", KeyRequired: true,
		StreamUsage: true, MaxCompletionTokens: true},
	// DeepSeek puts usage on its last choice chunk anyway; asking for it is
	// accepted and harmless.
	ProfileDeepSeek: {Name: ProfileDeepSeek, DefaultBaseURL: "https://api.deepseek.com/v1", KeyRequired: true,
		StreamUsage: true, EchoReasoning: true},
	ProfileQwen: {Name: ProfileQwen, DefaultBaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1",
		KeyRequired: true, StreamUsage: true},
	ProfileOllama: {Name: ProfileOllama, DefaultBaseURL: "http://localhost:11434/v1", StreamUsage: true},
	ProfileGemini: {Name: ProfileGemini, DefaultBaseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
		KeyRequired: true, StreamUsage: true, EchoToolCallExtra: true},
	// Generic servers (vLLM, llama.cpp, relays) mostly accept stream_options;
	// a model can turn it off with stream_usage: false.
	ProfileOpenAICompatible: {Name: ProfileOpenAICompatible, StreamUsage: true},
}

// LookupProfile returns the profile with that name.
func LookupProfile(name string) (Profile, bool) {
	p, ok := profiles[name]
	return p, ok
}

// ProfileNames lists the accepted profile names in a stable order.
func ProfileNames() []string {
	return []string{ProfileOpenAI, ProfileDeepSeek, ProfileQwen, ProfileOllama, ProfileGemini, ProfileOpenAICompatible}
}
