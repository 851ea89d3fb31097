package notes_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestBlogTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ok := notes.BlogInput{ShopID: 1, Title: "探店", Content: "好吃\n\t真的"}
	if _, err := notes.ValidBlog(ok); err != nil {
		t.Fatalf("a body with a newline and a tab: %v", err)
	}
	for name, s := range socialtest.HostileText {
		for field, set := range map[string]func(*notes.BlogInput){
			"title":   func(in *notes.BlogInput) { in.Title = s },
			"content": func(in *notes.BlogInput) { in.Content = s },
		} {
			in := ok
			set(&in)
			if _, err := notes.ValidBlog(in); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
	for name, s := range socialtest.SingleLineOnly {
		in := ok
		in.Title = s
		if _, err := notes.ValidBlog(in); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("title with %s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

func TestCommentsRefuseControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	c := &notes.CommentCommands{}
	for name, s := range socialtest.HostileText {
		_, err := c.Create(context.Background(), domain.Actor{UserID: 1}, notes.CommentInput{BlogID: 1, Content: s})
		if !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("comment with %s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}
