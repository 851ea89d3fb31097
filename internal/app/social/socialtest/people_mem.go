package socialtest

import (
	"context"
	"sync"

	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemProfiles is an in-memory people.Users: user accounts and their profiles.
type MemProfiles struct {
	mu    sync.Mutex
	users map[int64]domain.User
	last  int64
}

var _ people.Users = (*MemProfiles)(nil)

// NewMemProfiles returns users holding us.
func NewMemProfiles(us ...domain.User) *MemProfiles {
	m := &MemProfiles{users: map[int64]domain.User{}}
	for _, u := range us {
		m.Add(u)
	}
	return m
}

// copyUser returns u with a birthday of its own.
func copyUser(u domain.User) domain.User {
	if u.Birthday != nil {
		b := *u.Birthday
		u.Birthday = &b
	}
	return u
}

// Add stores u, under its ID or, when that is 0, under the next one, and returns it.
func (m *MemProfiles) Add(u domain.User) domain.User {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u.ID == 0 {
		u.ID = m.last + 1
	}
	m.last = max(m.last, u.ID)
	m.users[u.ID] = copyUser(u)
	return copyUser(u)
}

// User implements people.Users.
func (m *MemProfiles) User(_ context.Context, id int64) (domain.User, error) {
	return memGet(&m.mu, m.users, id, copyUser)
}

// UsersByIDs implements people.Users.
func (m *MemProfiles) UsersByIDs(_ context.Context, ids []int64) ([]domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.User
	for _, id := range ids {
		if u, ok := m.users[id]; ok {
			out = append(out, copyUser(u))
		}
	}
	return out, nil
}

// UpdateProfile implements people.Users: nickname, icon and profile change, the rest
// of the account stays.
func (m *MemProfiles) UpdateProfile(_ context.Context, u domain.User) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	stored, ok := m.users[u.ID]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	stored.NickName, stored.Icon = u.NickName, u.Icon
	stored.City, stored.Introduction, stored.Gender, stored.Birthday = u.City, u.Introduction, u.Gender, u.Birthday
	m.users[u.ID] = copyUser(stored)
	return copyUser(stored), nil
}
