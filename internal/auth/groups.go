package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// GroupView is the JSON shape of a group with its members.
type GroupView struct {
	ID        int64          `json:"id"`
	Name      string         `json:"name"`
	Members   []store.Member `json:"members"`
	CreatedAt time.Time      `json:"created_at"`
}

// GroupRef is a group named without its members.
type GroupRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func groupNotFound(id int64) error {
	return apierr.NotFound(apierr.CodeGroupNotFound, "no such group: %d", id)
}

func checkGroupName(name string) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if !kb.ValidUsername(name) {
		return "", apierr.BadRequest(apierr.CodeInvalidName, "a group name is 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	return name, nil
}

// CreateGroup adds a group.
func (s *Service) CreateGroup(ctx context.Context, name string) (GroupView, error) {
	name, err := checkGroupName(name)
	if err != nil {
		return GroupView{}, err
	}
	g := store.Group{Name: name}
	if err := s.st.CreateGroup(ctx, &g); errors.Is(err, store.ErrConflict) {
		return GroupView{}, apierr.Conflict(apierr.CodeAlreadyExists, "a group named %s already exists", name)
	} else if err != nil {
		return GroupView{}, apierr.Internal("create group", err)
	}
	return GroupView{ID: g.ID, Name: g.Name, Members: []store.Member{}, CreatedAt: g.CreatedAt}, nil
}

// RenameGroup renames a group; its shares keep applying.
func (s *Service) RenameGroup(ctx context.Context, id int64, name string) (GroupView, error) {
	name, err := checkGroupName(name)
	if err != nil {
		return GroupView{}, err
	}
	switch err := s.st.RenameGroup(ctx, id, name); {
	case errors.Is(err, store.ErrNotFound):
		return GroupView{}, groupNotFound(id)
	case errors.Is(err, store.ErrConflict):
		return GroupView{}, apierr.Conflict(apierr.CodeAlreadyExists, "a group named %s already exists", name)
	case err != nil:
		return GroupView{}, apierr.Internal("rename group", err)
	}
	return s.Group(ctx, id)
}

// DeleteGroup removes a group; every share naming it ends with it.
func (s *Service) DeleteGroup(ctx context.Context, id int64) error {
	if err := s.st.DeleteGroup(ctx, id); errors.Is(err, store.ErrNotFound) {
		return groupNotFound(id)
	} else if err != nil {
		return apierr.Internal("delete group", err)
	}
	return nil
}

// Group returns one group with its members.
func (s *Service) Group(ctx context.Context, id int64) (GroupView, error) {
	g, err := s.st.GroupByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return GroupView{}, groupNotFound(id)
	}
	if err != nil {
		return GroupView{}, apierr.Internal("read group", err)
	}
	vs, err := s.withMembers(ctx, []store.Group{g})
	if err != nil {
		return GroupView{}, err
	}
	return vs[0], nil
}

// Groups lists every group with its members, by name.
func (s *Service) Groups(ctx context.Context) ([]GroupView, error) {
	gs, err := s.st.ListGroups(ctx)
	if err != nil {
		return nil, apierr.Internal("list groups", err)
	}
	return s.withMembers(ctx, gs)
}

func (s *Service) withMembers(ctx context.Context, gs []store.Group) ([]GroupView, error) {
	ids := make([]int64, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
	}
	members, err := s.st.MembersOf(ctx, ids)
	if err != nil {
		return nil, apierr.Internal("read group members", err)
	}
	out := make([]GroupView, len(gs))
	for i, g := range gs {
		ms := members[g.ID]
		if ms == nil {
			ms = []store.Member{}
		}
		out[i] = GroupView{ID: g.ID, Name: g.Name, Members: ms, CreatedAt: g.CreatedAt}
	}
	return out, nil
}

// AddMember puts an account in a group.
func (s *Service) AddMember(ctx context.Context, groupID, userID int64) (GroupView, error) {
	if _, err := s.Group(ctx, groupID); err != nil {
		return GroupView{}, err
	}
	if _, err := s.st.UserByID(ctx, userID); errors.Is(err, store.ErrNotFound) {
		return GroupView{}, apierr.NotFound(apierr.CodeUserNotFound, "no such user: %d", userID)
	} else if err != nil {
		return GroupView{}, apierr.Internal("add member: read user", err)
	}
	if err := s.st.AddMember(ctx, groupID, userID); err != nil {
		return GroupView{}, apierr.Internal("add member", err)
	}
	return s.Group(ctx, groupID)
}

// RemoveMember takes an account out of a group: what the group's shares
// gave them ends with their next request.
func (s *Service) RemoveMember(ctx context.Context, groupID, userID int64) error {
	if _, err := s.Group(ctx, groupID); err != nil {
		return err
	}
	if err := s.st.RemoveMember(ctx, groupID, userID); errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound(apierr.CodeNotAMember, "user %d is not a member of group %d", userID, groupID)
	} else if err != nil {
		return apierr.Internal("remove member", err)
	}
	return nil
}

// GroupsOf lists the groups a user belongs to.
func (s *Service) GroupsOf(ctx context.Context, userID int64) ([]GroupRef, error) {
	gs, err := s.st.GroupsOf(ctx, userID)
	if err != nil {
		return nil, apierr.Internal("list groups of user", err)
	}
	out := make([]GroupRef, len(gs))
	for i, g := range gs {
		out[i] = GroupRef{ID: g.ID, Name: g.Name}
	}
	return out, nil
}

// Directory is who a share can name: people and groups.
type Directory struct {
	Users  []store.Member `json:"users"`
	Groups []GroupRef     `json:"groups"`
}

// MaxDirectory bounds each list of a directory answer.
const MaxDirectory = 20

// Lookup lists the enabled accounts other than the caller and the groups
// whose names start with prefix.
func (s *Service) Lookup(ctx context.Context, callerID int64, prefix string) (Directory, error) {
	if len(prefix) > 64 {
		return Directory{}, apierr.BadRequest(apierr.CodeInvalidQuery, "q is at most 64 characters")
	}
	us, gs, err := s.st.Directory(ctx, prefix, callerID, MaxDirectory)
	if err != nil {
		return Directory{}, apierr.Internal("look up directory", err)
	}
	out := Directory{Users: us, Groups: make([]GroupRef, len(gs))}
	if out.Users == nil {
		out.Users = []store.Member{}
	}
	for i, g := range gs {
		out.Groups[i] = GroupRef{ID: g.ID, Name: g.Name}
	}
	return out, nil
}
