package social

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

// hostileText holds characters no user-facing text may carry: a control character and
// the bidi overrides and isolates that make text read differently from what it says.
var hostileText = map[string]string{
	"escape":                 "a\x1b[2Jb",
	"NUL":                    "a\x00b",
	"C1 control":             "a\u0085b",
	"right-to-left override": "gpj.\u202eexe",
	"left-to-right isolate":  "a\u2066b\u2069",
}

// singleLineOnly are fine in a body of text but not in a one-line field.
var singleLineOnly = map[string]string{
	"newline":             "a\nb",
	"tab":                 "a\tb",
	"right-to-left mark":  "a\u200fb",
	"paragraph separator": "a\u2029b",
}

func TestBlogTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ok := BlogInput{ShopID: 1, Title: "探店", Content: "好吃\n\t真的"}
	if _, err := validBlog(ok); err != nil {
		t.Fatalf("a body with a newline and a tab: %v", err)
	}
	for name, s := range hostileText {
		for field, set := range map[string]func(*BlogInput){
			"title":   func(in *BlogInput) { in.Title = s },
			"content": func(in *BlogInput) { in.Content = s },
		} {
			in := ok
			set(&in)
			if _, err := validBlog(in); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
	for name, s := range singleLineOnly {
		in := ok
		in.Title = s
		if _, err := validBlog(in); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("title with %s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

func TestCommentsRefuseControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	c := &CommentCommands{}
	for name, s := range hostileText {
		_, err := c.Create(context.Background(), domain.Actor{UserID: 1}, CommentInput{BlogID: 1, Content: s})
		if !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("comment with %s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

// profileUsers is a Users port holding one user.
type profileUsers struct{ u domain.User }

func (p *profileUsers) User(context.Context, int64) (domain.User, error) { return p.u, nil }
func (p *profileUsers) UsersByIDs(context.Context, []int64) ([]domain.User, error) {
	return []domain.User{p.u}, nil
}
func (p *profileUsers) UpdateProfile(_ context.Context, u domain.User) (domain.User, error) {
	p.u = u
	return u, nil
}

func TestProfileTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ptr := func(s string) *string { return &s }
	c := &PeopleCommands{users: &profileUsers{u: domain.User{ID: 1, NickName: "n"}}}
	actor := domain.Actor{UserID: 1}
	if _, err := c.UpdateProfile(context.Background(), actor, ProfileInput{NickName: ptr("小明"), City: ptr("上海"), Introduction: ptr("爱吃\n爱玩")}); err != nil {
		t.Fatalf("a plain profile: %v", err)
	}
	fields := map[string]func(s string) ProfileInput{
		"nickName":     func(s string) ProfileInput { return ProfileInput{NickName: &s} },
		"city":         func(s string) ProfileInput { return ProfileInput{City: &s} },
		"introduction": func(s string) ProfileInput { return ProfileInput{Introduction: &s} },
	}
	for name, s := range hostileText {
		for field, in := range fields {
			if _, err := c.UpdateProfile(context.Background(), actor, in(s)); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
	for name, s := range singleLineOnly {
		for _, field := range []string{"nickName", "city"} {
			if _, err := c.UpdateProfile(context.Background(), actor, fields[field](s)); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
}
