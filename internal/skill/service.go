package skill

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Service keeps users' skills and answers the skill endpoints.
type Service struct {
	Store *store.Store
	// Tree reads the files a preview or a generate request names, through
	// the authorizer.
	Tree *knowledge.Tree
	// Models answers generate requests; nil means none is configured.
	Models *llm.Registry
}

// Input is the body of a new skill.
type Input struct {
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	Prompt         string  `json:"prompt"`
	OutputLanguage *string `json:"output_language"`
}

// Validate checks every field, naming the first one that is wrong.
func (in *Input) Validate() error {
	in.Name = strings.TrimSpace(in.Name)
	if err := checkName(in.Name); err != nil {
		return err
	}
	if err := checkDescription(in.Description); err != nil {
		return err
	}
	if err := checkPrompt(in.Prompt); err != nil {
		return err
	}
	if in.OutputLanguage != nil {
		return checkLanguage(*in.OutputLanguage)
	}
	return nil
}

// Changes is the body of an update: absent fields stay as they are;
// output_language null or "" clears the language.
type Changes struct {
	Name           *string  `json:"name"`
	Description    *string  `json:"description"`
	Prompt         *string  `json:"prompt"`
	OutputLanguage Optional `json:"output_language"`
}

// Optional is a string field that tells absent from null.
type Optional struct {
	Set   bool
	Value string
}

// UnmarshalJSON records that the field was sent; null is "".
func (o *Optional) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Value = ""
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// Validate checks the fields that were sent.
func (ch *Changes) Validate() error {
	if ch.Name != nil {
		name := strings.TrimSpace(*ch.Name)
		ch.Name = &name
		if err := checkName(name); err != nil {
			return err
		}
	}
	if ch.Description != nil {
		if err := checkDescription(*ch.Description); err != nil {
			return err
		}
	}
	if ch.Prompt != nil {
		if err := checkPrompt(*ch.Prompt); err != nil {
			return err
		}
	}
	if ch.OutputLanguage.Set {
		return checkLanguage(ch.OutputLanguage.Value)
	}
	return nil
}

func notFound(id string) error {
	return apierr.NotFound(apierr.CodeNotFound, "skill %s does not exist", id)
}

func readOnly(id string) error {
	return apierr.Forbidden(apierr.CodeBuiltinSkill, "skill %s is built in and read-only; duplicate it to change it", id)
}

func conflict(name string) error {
	return apierr.Conflict(apierr.CodeAlreadyExists, "name: you already have a skill named %q", name).WithDetail("field", "name")
}

// List returns the built-in skills, then the caller's by name.
func (s *Service) List(ctx context.Context, c kb.Caller) ([]Skill, error) {
	rows, err := s.Store.ListSkills(ctx, c.ID)
	if err != nil {
		return nil, apierr.Internal("list skills", err)
	}
	out := Builtins()
	for _, r := range rows {
		out = append(out, fromRow(r))
	}
	return out, nil
}

// Get returns a built-in skill or one of the caller's.
func (s *Service) Get(ctx context.Context, c kb.Caller, id string) (Skill, error) {
	if IsBuiltinID(id) {
		if b, ok := Builtin(id); ok {
			return b, nil
		}
		return Skill{}, notFound(id)
	}
	n, ok := parseID(id)
	if !ok {
		return Skill{}, notFound(id)
	}
	r, err := s.Store.SkillOf(ctx, c.ID, n)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Skill{}, notFound(id)
	case err != nil:
		return Skill{}, apierr.Internal("read skill", err)
	}
	return fromRow(r), nil
}

// Create stores a new skill of the caller's; in must be validated.
func (s *Service) Create(ctx context.Context, c kb.Caller, in Input) (Skill, error) {
	r := store.Skill{UserID: c.ID, Name: in.Name, Description: in.Description, Prompt: in.Prompt}
	if in.OutputLanguage != nil {
		r.OutputLanguage = *in.OutputLanguage
	}
	err := s.Store.CreateSkill(ctx, &r)
	switch {
	case errors.Is(err, store.ErrConflict):
		return Skill{}, conflict(in.Name)
	case err != nil:
		return Skill{}, apierr.Internal("create skill", err)
	}
	return fromRow(r), nil
}

// Update changes one of the caller's skills; ch must be validated.
func (s *Service) Update(ctx context.Context, c kb.Caller, id string, ch Changes) (Skill, error) {
	n, err := s.own(id)
	if err != nil {
		return Skill{}, err
	}
	sc := store.SkillChanges{Name: ch.Name, Description: ch.Description, Prompt: ch.Prompt}
	if ch.OutputLanguage.Set {
		sc.OutputLanguage = &ch.OutputLanguage.Value
	}
	r, err := s.Store.UpdateSkill(ctx, c.ID, n, sc)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Skill{}, notFound(id)
	case errors.Is(err, store.ErrConflict):
		return Skill{}, conflict(*ch.Name)
	case err != nil:
		return Skill{}, apierr.Internal("update skill", err)
	}
	return fromRow(r), nil
}

// Delete removes one of the caller's skills. Jobs enqueued with it keep
// their copy of its prompt.
func (s *Service) Delete(ctx context.Context, c kb.Caller, id string) error {
	n, err := s.own(id)
	if err != nil {
		return err
	}
	err = s.Store.DeleteSkill(ctx, c.ID, n)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return notFound(id)
	case err != nil:
		return apierr.Internal("delete skill", err)
	}
	return nil
}

// own parses the id of a skill that may be changed: built-ins may not.
func (s *Service) own(id string) (int64, error) {
	if IsBuiltinID(id) {
		if _, ok := Builtin(id); ok {
			return 0, readOnly(id)
		}
		return 0, notFound(id)
	}
	n, ok := parseID(id)
	if !ok {
		return 0, notFound(id)
	}
	return n, nil
}

// Resolve finds the skill a compile request names: a user skill by id
// (only the caller's), a built-in by id or by name.
func (s *Service) Resolve(ctx context.Context, c kb.Caller, ref string) (Skill, error) {
	if b, ok := Builtin(ref); ok {
		return b, nil
	}
	if _, ok := parseID(ref); !ok || s == nil || s.Store == nil {
		return Skill{}, unknown(ref)
	}
	sk, err := s.Get(ctx, c, ref)
	if e, ok := apierr.As(err); ok && e.Status == 404 {
		return Skill{}, unknown(ref)
	}
	return sk, err
}

func unknown(ref string) error {
	return apierr.BadRequest(apierr.CodeUnknownSkill, "skill %q is not known; GET /api/v1/knowledge-agent/skills lists the skills", ref)
}
