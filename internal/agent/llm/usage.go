package llm

import (
	"context"
	"math"
)

// Purpose says why a model was called, for usage accounting.
type Purpose string

// The purposes of model calls.
const (
	PurposeChat       Purpose = "chat"
	PurposeCompaction Purpose = "compaction"
	PurposeCompile    Purpose = "compile"
	PurposeSkill      Purpose = "skill"
	PurposeOpenAI     Purpose = "openai" // the OpenAI-compatible endpoint
	PurposeCheck      Purpose = "check"  // a model check from the settings
	PurposeEmbedding  Purpose = "embedding"
)

// Attribution is who a model call is made for, and why. It travels in the
// call's context so every caller (a turn, a compile job, a skill draft)
// names itself once, where it knows the user.
type Attribution struct {
	UserID  int64
	Purpose Purpose
}

type attributionKey struct{}

// WithAttribution names who the calls made with ctx are for.
func WithAttribution(ctx context.Context, a Attribution) context.Context {
	return context.WithValue(ctx, attributionKey{}, a)
}

// WithPurpose keeps the user of ctx and changes the purpose (compaction
// inside a chat turn).
func WithPurpose(ctx context.Context, p Purpose) context.Context {
	a := AttributionOf(ctx)
	a.Purpose = p
	return WithAttribution(ctx, a)
}

// AttributionOf is the attribution of ctx; zero when no caller named one.
func AttributionOf(ctx context.Context) Attribution {
	a, _ := ctx.Value(attributionKey{}).(Attribution)
	return a
}

// CallUsage is one finished model call as usage accounting sees it.
type CallUsage struct {
	Model string
	Attribution
	InputTokens  int
	OutputTokens int
	// Estimated marks counts made from the text's length because the
	// provider reported none.
	Estimated bool
	Cost      float64 // from the model's prices; 0 when it has none
}

// UsageRecorder keeps model calls' usage. RecordUsage must not block the
// call's end for long: it is called as the stream ends.
type UsageRecorder interface {
	RecordUsage(CallUsage)
}

// estimateTokens is a conservative token count for text of n bytes when
// the provider reports none: about four bytes a token in English, fewer in
// Chinese, so bytes/3 errs towards counting more.
func estimateTokens(n int) int { return int(math.Ceil(float64(n) / 3)) }

// callUsage turns what the stream saw into the call's usage.
func (s *Stream) callUsage() CallUsage {
	u := CallUsage{Model: s.model.cfg.ID, Attribution: AttributionOf(s.ctx)}
	if s.usage != nil {
		u.InputTokens, u.OutputTokens = s.usage.InputTokens, s.usage.OutputTokens
	} else {
		u.InputTokens, u.OutputTokens, u.Estimated = estimateTokens(s.requestBytes), estimateTokens(s.outputBytes), true
	}
	u.Cost = (float64(u.InputTokens)*s.model.cfg.PriceInput + float64(u.OutputTokens)*s.model.cfg.PriceOutput) / 1e6
	return u
}

// EstimateTokens is the token count usage accounting assumes for text of
// n bytes when the provider reports none.
func EstimateTokens(n int) int { return estimateTokens(n) }

// InputCost is what tokens of input cost at the model's price.
func (m *Model) InputCost(tokens int) float64 { return float64(tokens) * m.cfg.PriceInput / 1e6 }
