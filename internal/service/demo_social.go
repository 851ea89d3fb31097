package service

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// seedDemoSocial makes the demo community's follows, notes and likes through the app's
// own use cases, right after Seed stored its people: the database gets the facts and
// Redis what the app derives from them (follow sets, feeds, like sets and counts).
func (s *Node) seedDemoSocial(ctx context.Context) error {
	demo := entstore.DemoSocialData()
	ids := make([]int64, len(demo.Users))
	for i, u := range demo.Users {
		stored, err := s.Store.Users().UserByPhone(ctx, u.Phone)
		if err != nil {
			return fmt.Errorf("seed demo notes: look up demo user %s: %w", u.NickName, err)
		}
		ids[i] = stored.ID
	}
	shops, err := s.App.Queries.Shops.Shops(ctx, domain.ShopFilter{}, s.Config.Paging.MaxPageSize, 0)
	if err != nil {
		return fmt.Errorf("seed demo notes: list shops: %w", err)
	}
	for _, f := range demo.Follows {
		if err := s.App.Commands.Follows.Follow(ctx, ids[f[0]], ids[f[1]]); err != nil {
			return fmt.Errorf("seed demo follows: %w", err)
		}
	}
	for _, b := range demo.Blogs {
		if b.Shop >= len(shops.Shops) {
			continue
		}
		view, err := s.App.Commands.Blogs.CreateBlog(ctx, ids[b.Author], notes.BlogInput{
			ShopID: shops.Shops[b.Shop].ID, Title: b.Title, Content: b.Content, Rating: b.Rating,
		})
		if err != nil {
			return fmt.Errorf("seed demo note %q: %w", b.Title, err)
		}
		var made []int64
		for _, c := range b.Comments {
			in := notes.CommentInput{BlogID: view.Blog.ID, Content: c.Content}
			if c.ReplyTo > 0 {
				in.ReplyTo = made[c.ReplyTo-1]
			}
			cm, err := s.App.Commands.Comments.Create(ctx, domain.Actor{UserID: ids[c.Author], Role: domain.RoleUser}, in)
			if err != nil {
				return fmt.Errorf("seed demo comment on note %q: %w", b.Title, err)
			}
			made = append(made, cm.ID)
		}
		for _, u := range b.LikedBy {
			if _, err := s.App.Commands.Likes.LikeBlog(ctx, ids[u], view.Blog.ID); err != nil {
				return fmt.Errorf("seed demo like of note %q: %w", b.Title, err)
			}
		}
	}
	s.Log.Info("demo notes, likes and follows seeded", slog.Int("users", len(ids)),
		slog.Int("notes", len(demo.Blogs)), slog.Int("follows", len(demo.Follows)))
	return nil
}
