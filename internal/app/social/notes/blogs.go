package notes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// BlogInput is a new blog.
type BlogInput struct {
	ShopID  int64
	Title   string
	Content string
	Images  []string
	// Rating is a 1–5 star rating of the shop; 0 gives none.
	Rating int
}

// Blog field limits. The title is also bounded in bytes by its column.
const (
	maxTitleRunes   = 80
	maxTitleBytes   = 255
	maxContentRunes = 5000
	maxImages       = 9
	maxImageRunes   = 255
	maxImagesBytes  = 2048
)

// BlogCommands publish blogs.
type BlogCommands struct {
	blogs     Blogs
	shops     Shops
	publisher Publisher
	likes     Likes
	views     *Views
	now       func() time.Time
	log       *slog.Logger
	limits    *postLimits
	// shopCache is told when a shop's reviews changed (nil: nothing caches shops).
	shopCache ShopInvalidator
	credits   Credits
	// images tells whether the paths of this site a note shows exist (nil: not checked).
	images Images
	// notifier tells the author's followers who want it (the inbox decides) of the note.
	notifier Notifier
}

// CreateBlog publishes a blog by authorID, awards the author its credits and pushes it
// to the author's followers: inline for a few followers, through the fan-out queue for
// many. A failed push or award does not fail the call (the blog exists, and a retry
// would publish it twice); it is logged. Errors: BAD_USER_INPUT (among them an image
// path of this site where it serves no image).
func (c *BlogCommands) CreateBlog(ctx context.Context, authorID int64, in BlogInput) (BlogView, error) {
	b, err := validBlog(in)
	if err != nil {
		return BlogView{}, err
	}
	if err := CheckImagesExist(ctx, c.images, "images", b.Images); err != nil {
		return BlogView{}, err
	}
	shops, err := c.shops.ShopsByIDs(ctx, []int64{b.ShopID})
	if err != nil {
		return BlogView{}, fmt.Errorf("look up shop of new blog: %w", err)
	}
	if len(shops) == 0 {
		return BlogView{}, domain.Errorf(domain.CodeBadUserInput, "shopId: no shop %d", b.ShopID)
	}
	if err := c.limits.allow(ctx, "note", authorID); err != nil {
		return BlogView{}, err
	}
	b.UserID = authorID
	// Feed scores are milliseconds: the stored time says the same.
	b.CreatedAt = c.now().Truncate(time.Millisecond)
	created, err := c.blogs.CreateBlog(ctx, b)
	if err != nil {
		return BlogView{}, fmt.Errorf("create blog: %w", err)
	}
	if _, err := c.credits.Award(context.WithoutCancel(ctx), domain.NoteAward(created)); err != nil {
		c.log.Warn("a note's credits were not awarded", slog.Int64("blog_id", created.ID), slog.Any("error", err))
	}
	c.publisher.Publish(ctx, created)
	c.notifier.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyFollowedNote, ActorID: authorID, BlogID: created.ID, At: created.CreatedAt})
	c.shopReviewed(ctx, created.ShopID)
	views, err := c.views.Of(ctx, authorID, []domain.Blog{created})
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

func validBlog(in BlogInput) (domain.Blog, error) {
	if in.ShopID <= 0 {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	}
	title := strings.TrimSpace(in.Title)
	content := strings.TrimSpace(in.Content)
	switch {
	case title == "":
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title must not be empty")
	case utf8.RuneCountInString(title) > maxTitleRunes || len(title) > maxTitleBytes:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title must be at most %d characters", maxTitleRunes)
	case !utf8.ValidString(title) || !utf8.ValidString(content):
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title and content must be valid UTF-8")
	case content == "":
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "content must not be empty")
	case utf8.RuneCountInString(content) > maxContentRunes:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "content must be at most %d characters", maxContentRunes)
	case len(in.Images) > maxImages:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "at most %d images", maxImages)
	}
	if err := domain.CheckText("title", title, false); err != nil {
		return domain.Blog{}, err
	}
	if err := domain.CheckText("content", content, true); err != nil {
		return domain.Blog{}, err
	}
	images := make([]string, 0, len(in.Images))
	total := 0
	for _, img := range in.Images {
		img = strings.TrimSpace(img)
		switch {
		case img == "":
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "images must not be empty strings")
		case strings.ContainsAny(img, ",\n\r\t ") || !utf8.ValidString(img):
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image path must not contain commas or spaces")
		case utf8.RuneCountInString(img) > maxImageRunes:
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image path must be at most %d characters", maxImageRunes)
		case !ValidImage(img):
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image must be an https URL or an uploaded image's /media/ path")
		}
		total += len(img) + 1
		images = append(images, img)
	}
	if total > maxImagesBytes {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "image paths must be at most %d bytes together", maxImagesBytes)
	}
	if in.Rating < 0 || in.Rating > 5 {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "rating: 1 to 5 stars, or none")
	}
	return domain.Blog{ShopID: in.ShopID, Title: title, Content: content, Images: images, Rating: in.Rating}, nil
}

// BlogUpdate changes a blog: nil fields stay as they are.
type BlogUpdate struct {
	Title   *string
	Content *string
	Images  *[]string
	// Rating changes the rating (0 takes it back).
	Rating *int
}

// UpdateBlog changes a blog's title, content or images, for its author. Errors:
// NOT_FOUND, FORBIDDEN (someone else's blog), BAD_USER_INPUT (as CreateBlog).
func (c *BlogCommands) UpdateBlog(ctx context.Context, a domain.Actor, id int64, in BlogUpdate) (BlogView, error) {
	if a.UserID <= 0 {
		return BlogView{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	b, err := c.blogs.UpdateBlog(ctx, id, func(b *domain.Blog) error {
		if b.UserID != a.UserID {
			return domain.Errorf(domain.CodeForbidden, "only its author edits a note")
		}
		next := BlogInput{ShopID: b.ShopID, Title: b.Title, Content: b.Content, Images: b.Images, Rating: b.Rating}
		if in.Rating != nil {
			next.Rating = *in.Rating
		}
		if in.Title != nil {
			next.Title = *in.Title
		}
		if in.Content != nil {
			next.Content = *in.Content
		}
		if in.Images != nil {
			next.Images = *in.Images
		}
		valid, err := validBlog(next)
		if err != nil {
			return err
		}
		// Only images the edit adds: those the note shows were checked when added.
		var added []string
		for _, img := range valid.Images {
			if !slices.Contains(b.Images, img) {
				added = append(added, img)
			}
		}
		if err := CheckImagesExist(ctx, c.images, "images", added); err != nil {
			return err
		}
		b.Title, b.Content, b.Images, b.Rating = valid.Title, valid.Content, valid.Images, valid.Rating
		return nil
	})
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no note %d", id)
	}
	if err != nil {
		return BlogView{}, err
	}
	if in.Rating != nil {
		c.shopReviewed(ctx, b.ShopID)
	}
	views, err := c.views.Of(ctx, a.UserID, []domain.Blog{b})
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

// shopReviewed drops the cached copies of a shop whose reviews changed (its score and
// review count).
func (c *BlogCommands) shopReviewed(ctx context.Context, shopID int64) {
	if c.shopCache == nil {
		return
	}
	if err := c.shopCache.ShopChanged(ctx, shopID); err != nil {
		c.log.Warn("a shop's cached score is served until it expires", slog.Int64("shop_id", shopID), slog.Any("error", err))
	}
}

// DeleteBlog deletes a blog with its comments and likes, for its author or an ADMIN,
// and takes its credits back from its author. It reports true when it deleted the blog,
// false when there was no such blog (never, or no longer): a repeated delete is no
// error. Followers' feeds skip it from then on. Errors: FORBIDDEN.
func (c *BlogCommands) DeleteBlog(ctx context.Context, a domain.Actor, id int64) (bool, error) {
	if a.UserID <= 0 && a != domain.Operator {
		return false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	b, err := c.blogs.Blog(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if b.UserID != a.UserID && a.Role != domain.RoleAdmin {
		return false, domain.Errorf(domain.CodeForbidden, "only its author or an administrator deletes a note")
	}
	// The credits go first: should the delete fail, a retry finds the blog and deletes
	// it (taking nothing back twice), whereas a blog deleted first is not found again.
	if _, err := c.credits.Revoke(ctx, b.UserID, domain.CreditNote, b.ID); err != nil {
		return false, fmt.Errorf("take back the credits of blog %d: %w", id, err)
	}
	deleted, err := c.blogs.DeleteBlog(ctx, id)
	if err != nil {
		return false, err
	}
	c.shopReviewed(ctx, b.ShopID)
	if err := c.likes.Forget(ctx, id); err != nil {
		c.log.Warn("deleted note's likers stay cached until they expire", "blog_id", id, "error", err)
	}
	return deleted, nil
}
