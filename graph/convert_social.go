package graph

import (
	"context"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// viewer is who reads public data: the caller when logged in, else anonymous (also when
// a presented token was refused — public fields still answer).
func viewer(ctx context.Context) auth.Principal {
	return callerFrom(ctx).principal
}

// socialViewer is the reader as the social use cases see it: a user id and the client's
// address.
func socialViewer(ctx context.Context) notes.Viewer {
	return notes.Viewer{UserID: viewer(ctx).UserID, ClientIP: reqmeta.From(ctx).ClientIP}
}

func blogToModel(v notes.BlogView) *model.Blog {
	images := v.Blog.Images
	if images == nil {
		images = []string{}
	}
	out := &model.Blog{
		ID:           formatID(v.Blog.ID),
		Title:        v.Blog.Title,
		Content:      v.Blog.Content,
		ImageUrls:    images,
		AuthorID:     formatID(v.Blog.UserID),
		ShopID:       formatID(v.Blog.ShopID),
		LikedCount:   v.Blog.Liked,
		Rating:       ratingOf(v.Blog.Rating),
		CommentCount: v.Blog.Comments,
		LikedByMe:    v.LikedByMe,
		CreatedAt:    v.Blog.CreatedAt,
	}
	return out
}

func usersToModel(users []domain.User, p auth.Principal) []model.User {
	out := make([]model.User, len(users))
	for i, u := range users {
		out[i] = *userToModel(u, p)
	}
	return out
}

func signInToModel(s signins.SignInStatus) *model.SignInStatus {
	return &model.SignInStatus{Month: s.Month, SignedDays: s.SignedDays, ConsecutiveDays: s.ConsecutiveDays, SignedToday: s.SignedToday}
}

// sliceOrNil tells a list left out (nil) from an empty one.
func sliceOrNil(s []string) *[]string {
	if s == nil {
		return nil
	}
	return &s
}

func ratingOf(stars int) *int {
	if stars == 0 {
		return nil
	}
	return &stars
}
