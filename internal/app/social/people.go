package social

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// PeopleQueries read users as other users see them.
type PeopleQueries struct {
	users Users
}

// ByIDs returns the users with ids (unknown ones left out) with one query.
func (q *PeopleQueries) ByIDs(ctx context.Context, ids []int64) (map[int64]domain.User, error) {
	users, err := q.users.UsersByIDs(ctx, unique(ids))
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	out := make(map[int64]domain.User, len(users))
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}
