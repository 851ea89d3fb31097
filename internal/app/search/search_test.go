package search_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/search/searchtest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// recorder is an index that remembers the queries it was asked.
type recorder struct {
	search.Index
	mu   sync.Mutex
	asks []search.Query
}

func (r *recorder) Search(ctx context.Context, q search.Query) ([]search.Hit, error) {
	r.mu.Lock()
	r.asks = append(r.asks, q)
	r.mu.Unlock()
	return r.Index.Search(ctx, q)
}

func (r *recorder) last() search.Query {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asks[len(r.asks)-1]
}

// likedViews sees every note with an even id as liked by the viewer 7.
type likedViews struct{}

func (likedViews) Of(_ context.Context, viewerID int64, blogs []domain.Blog) ([]notes.BlogView, error) {
	out := make([]notes.BlogView, len(blogs))
	for i, b := range blogs {
		out[i] = notes.BlogView{Blog: b, LikedByMe: viewerID == 7 && b.ID%2 == 0}
	}
	return out, nil
}

func newQueries(t *testing.T) (*search.Queries, *searchtest.MemIndex, *recorder) {
	t.Helper()
	x := searchtest.NewMemIndex()
	r := &recorder{Index: x}
	q, err := search.NewQueries(r, likedViews{}, search.Limits{Pages: domain.PageLimits{Default: 2, Max: 3}, MaxQueryRunes: 8})
	if err != nil {
		t.Fatal(err)
	}
	return q, x, r
}

func wantCode(t *testing.T, what string, err error, code domain.Code) {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != code {
		t.Fatalf("%s: err = %v, want %s", what, err, code)
	}
}

// A query is trimmed and its white space collapsed before the index sees it; its words
// are its terms.
func TestQueriesAreCleaned(t *testing.T) {
	t.Parallel()
	q, x, r := newQueries(t)
	x.PutShop(domain.Shop{ID: 1, Name: "海底捞 火锅"})
	page, err := q.Search(context.Background(), 0, " \t海底捞\n\u3000 火锅  ", search.KindShop, 0, nil)
	if err != nil || len(page.Results) != 1 || page.Results[0].Shop.ID != 1 {
		t.Fatalf("search = %+v, %v; want the shop", page, err)
	}
	got := r.last()
	if got.Text != "海底捞 火锅" || strings.Join(got.Terms, "|") != "海底捞|火锅" || got.Kind != search.KindShop || got.NamesOnly {
		t.Fatalf("the index was asked %+v", got)
	}
}

// A blank query, one longer than the limit (counted in characters, after cleaning), one
// with control characters, an unknown kind and bad page sizes are refused.
func TestBadQueriesAreRefused(t *testing.T) {
	t.Parallel()
	q, _, r := newQueries(t)
	ctx := context.Background()
	cases := map[string]func() error{
		"blank": func() error { _, err := q.Search(ctx, 0, " \t ", search.KindShop, 0, nil); return err },
		"nine characters": func() error {
			_, err := q.Search(ctx, 0, "一二三四五六七八九", search.KindNote, 0, nil)
			return err
		},
		"a NUL":                    func() error { _, err := q.Search(ctx, 0, "a\x00b", search.KindNote, 0, nil); return err },
		"a right-to-left override": func() error { _, err := q.Search(ctx, 0, "a\u202eb", search.KindNote, 0, nil); return err },
		"no kind":                  func() error { _, err := q.Search(ctx, 0, "茶", 0, 0, nil); return err },
		"first above the max":      func() error { _, err := q.Search(ctx, 0, "茶", search.KindNote, 4, nil); return err },
		"negative first":           func() error { _, err := q.Search(ctx, 0, "茶", search.KindNote, -1, nil); return err },
		"a position without id": func() error {
			_, err := q.Search(ctx, 0, "茶", search.KindNote, 0, &search.Position{Score: 1})
			return err
		},
	}
	for name, run := range cases {
		wantCode(t, name, run(), domain.CodeBadUserInput)
	}
	if len(r.asks) != 0 {
		t.Fatalf("the index was asked %+v", r.asks)
	}
	// Eight characters, once the spaces around them are gone, are within the limit.
	if _, err := q.Search(ctx, 0, "   一二三四五六七八   ", search.KindNote, 0, nil); err != nil {
		t.Fatalf("eight characters: %v", err)
	}
}

// Typos are forgiven in names (shops, people) when the query is one word of three
// characters or more, never in notes; shops(name:) searches names only, of one type.
func TestTyposAndNames(t *testing.T) {
	t.Parallel()
	q, _, r := newQueries(t)
	ctx := context.Background()
	for _, c := range []struct {
		text  string
		kind  search.Kind
		typos bool
	}{
		{"海底劳", search.KindShop, true}, {"海底", search.KindShop, false}, {"小 鱼", search.KindUser, false},
		{"小鱼儿", search.KindUser, true}, {"茶餐厅好吃", search.KindNote, false}, {"海底 劳火锅", search.KindShop, false},
	} {
		if _, err := q.Search(ctx, 0, c.text, c.kind, 0, nil); err != nil {
			t.Fatal(err)
		}
		if got := r.last(); got.Typos != c.typos {
			t.Errorf("%q of kind %d: typos %v, want %v", c.text, c.kind, got.Typos, c.typos)
		}
	}
	if _, err := q.ShopsByName(ctx, " 海底劳火锅 ", 4, 0, nil); err != nil {
		t.Fatal(err)
	}
	if got := r.last(); !got.NamesOnly || got.TypeID != 4 || !got.Typos || got.Text != "海底劳火锅" || got.Kind != search.KindShop {
		t.Fatalf("shops by name asked %+v", got)
	}
	// A name may be as long as a shop's name, whatever the search's limit.
	if _, err := q.ShopsByName(ctx, strings.Repeat("店", search.MaxNameQueryRunes), 0, 0, nil); err != nil {
		t.Fatalf("a name of %d characters: %v", search.MaxNameQueryRunes, err)
	}
	_, err := q.ShopsByName(ctx, strings.Repeat("店", search.MaxNameQueryRunes+1), 0, 0, nil)
	wantCode(t, "a name longer than any shop's", err, domain.CodeBadUserInput)
	_, err = q.ShopsByName(ctx, "店", -1, 0, nil)
	wantCode(t, "a negative type", err, domain.CodeBadUserInput)
	if search.Named("  ") || !search.Named(" 店 ") {
		t.Fatal("Named: a blank name is no name; any other is")
	}
}

// Pages hold first results (the default when 0), tell whether more follow, and go on
// after the position the last one ended at.
func TestPages(t *testing.T) {
	t.Parallel()
	q, x, _ := newQueries(t)
	ctx := context.Background()
	for id, name := range map[int64]string{1: "面馆", 2: "老面馆", 3: "面馆二号", 4: "兰州拉面馆", 5: "饺子"} {
		x.PutShop(domain.Shop{ID: id, Name: name})
	}
	var seen []int64
	var after *search.Position
	for range 10 {
		page, err := q.Search(ctx, 0, "面馆", search.KindShop, 0, after)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Results) > 2 {
			t.Fatalf("a default page holds %d", len(page.Results))
		}
		for _, r := range page.Results {
			seen = append(seen, r.Shop.ID)
		}
		if !page.HasNextPage {
			break
		}
		after = &page.Results[len(page.Results)-1].Position
	}
	if len(seen) != 4 || seen[0] != 1 || seen[1] != 3 {
		t.Fatalf("pages found %v, want the four 面馆, the names that start with it first (1, 3)", seen)
	}
	page, err := q.Search(ctx, 0, "面馆", search.KindShop, 3, nil)
	if err != nil || len(page.Results) != 3 || !page.HasNextPage {
		t.Fatalf("a page of 3 = %+v, %v", page, err)
	}
}

// Notes are shown as the reader sees them, with a snippet of where they matched.
func TestNotesAsTheReaderSeesThem(t *testing.T) {
	t.Parallel()
	q, x, _ := newQueries(t)
	x.PutNote(domain.Blog{ID: 2, Title: "周末", Content: "<b>茶餐厅</b> & 奶茶"})
	x.PutNote(domain.Blog{ID: 3, Title: "茶餐厅推荐", Content: "冻柠茶"})
	page, err := q.Search(context.Background(), 7, "茶餐厅", search.KindNote, 0, nil)
	if err != nil || len(page.Results) != 2 {
		t.Fatalf("search = %+v, %v", page, err)
	}
	first, second := page.Results[0], page.Results[1]
	if first.Note.Blog.ID != 3 || first.Note.LikedByMe || first.Snippet != "<mark>茶餐厅</mark>推荐" {
		t.Errorf("first result %+v, want note 3 (its title starts with the query), not liked, the title marked", first)
	}
	if second.Note.Blog.ID != 2 || !second.Note.LikedByMe || second.Snippet != "&lt;b&gt;<mark>茶餐厅</mark>&lt;/b&gt; &amp; 奶茶" {
		t.Errorf("second result %+v (snippet %q), want note 2, liked, its content escaped and marked", second, second.Snippet)
	}
	if first.Shop != nil || first.User != nil || !first.Position.Before(second.Position) {
		t.Errorf("results %+v, %+v", first, second)
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("很好", 30) + "茶餐厅" + strings.Repeat("不错", 30)
	for _, c := range []struct {
		name, text, nameField string
		fields                []string
		want                  string
	}{
		{"the first field that matches", "火锅", "海底捞", []string{"海底捞", "湖滨", "火锅街"}, "<mark>火锅</mark>街"},
		{"every match, any case", "blue", "Blue blue BLUE", []string{"Blue blue BLUE"}, "<mark>Blue</mark> <mark>blue</mark> <mark>BLUE</mark>"},
		{"every term; overlaps merged", "茶餐 餐厅", "茶餐厅", []string{"茶餐厅"}, "<mark>茶餐厅</mark>"},
		{"HTML escaped, in and out of marks", "<b>", "a<b>c & \"d\"", []string{"a<b>c & \"d\""}, "a<mark>&lt;b&gt;</mark>c &amp; &#34;d&#34;"},
		{"white space collapsed", "茶", "奶\n\n茶\t 好", []string{"奶\n\n茶\t 好"}, "奶 <mark>茶</mark> 好"},
		{"a window around the match", "茶餐厅", "x", []string{long},
			// 20 characters before the match, 3 of it, 37 after: 60.
			"…" + strings.Repeat("很好", 10) + "<mark>茶餐厅</mark>" + strings.Repeat("不错", 18) + "不…"},
		{"a typo: the pairs shared with the name", "海底劳火锅", "海底捞火锅(水晶城店)", []string{"海底捞火锅(水晶城店)", "大关"},
			"<mark>海底</mark>捞<mark>火锅</mark>(水晶城店)"},
		{"nothing shared: the name as it is", "肯德基", "a<b", []string{"x"}, "a&lt;b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := search.Query{Text: c.text, Terms: strings.Split(c.text, " ")}
			if got := search.Snippet(q, c.nameField, c.fields...); got != c.want {
				t.Errorf("Snippet = %q\nwant      %q", got, c.want)
			}
		})
	}
	// The window ends where the text does, and starts where it does.
	q := search.Query{Text: "尾", Terms: []string{"尾"}}
	if got := search.Snippet(q, "", strings.Repeat("头", 70)+"尾"); got != "…"+strings.Repeat("头", 59)+"<mark>尾</mark>" {
		t.Errorf("a match at the end: %q", got)
	}
	q = search.Query{Text: "头", Terms: []string{"头"}}
	if got := search.Snippet(q, "", "头"+strings.Repeat("尾", 70)); got != "<mark>头</mark>"+strings.Repeat("尾", 59)+"…" {
		t.Errorf("a match at the start: %q", got)
	}
}
