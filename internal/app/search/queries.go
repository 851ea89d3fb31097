package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Limits are the search's settings.
type Limits struct {
	// Pages bounds a page of results (first).
	Pages domain.PageLimits
	// MaxQueryRunes bounds a query's length in characters, after it is cleaned.
	MaxQueryRunes int
}

// MaxNameQueryRunes bounds a shops(name:) query: the longest shop name, since a longer
// name matches nothing (it is not typo-tolerant past that either).
const MaxNameQueryRunes = 128

// minTypoRunes is the shortest query a typo is forgiven in: in one or two characters a
// wrong one leaves nothing to go by.
const minTypoRunes = 3

// Queries are the search use cases.
type Queries struct {
	index  Index
	notes  NoteViews
	limits Limits
}

// NewQueries builds the search use cases; it refuses missing dependencies and bad limits.
func NewQueries(index Index, notes NoteViews, limits Limits) (*Queries, error) {
	if index == nil || notes == nil {
		return nil, errors.New("search queries: nil index or note views")
	}
	if err := limits.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("search queries: %w", err)
	}
	if limits.MaxQueryRunes <= 0 {
		return nil, fmt.Errorf("search queries: bad query length limit %d", limits.MaxQueryRunes)
	}
	return &Queries{index: index, notes: notes, limits: limits}, nil
}

// Page is one page of results.
type Page struct {
	Results     []Result
	HasNextPage bool
}

// Result is one document found; only the field of the search's kind is set.
type Result struct {
	Position
	// Snippet is the part of the document's text that matched, HTML-escaped, with each
	// match in <mark>…</mark> (see Snippet).
	Snippet string
	Shop    *domain.Shop
	Note    *notes.BlogView
	User    *domain.User
}

// Normalize cleans a query: trimmed, every run of white space (tabs and line breaks
// too) one space.
func Normalize(text string) string { return strings.Join(strings.Fields(text), " ") }

// Named reports whether name, cleaned, is a name to search for: shops(name:) with a
// blank name lists every shop.
func Named(name string) bool { return Normalize(name) != "" }

// Search finds documents of kind matching text, best first: first ≤ the page limit (0:
// the default), after the position a previous page ended at. viewerID (0: anonymous)
// is who reads the notes found. Errors: BAD_USER_INPUT for a blank query, one longer
// than the limit or holding control characters, a bad page size or kind.
func (q *Queries) Search(ctx context.Context, viewerID int64, text string, kind Kind, first int, after *Position) (Page, error) {
	if kind < KindShop || kind > KindUser {
		return Page{}, domain.Errorf(domain.CodeBadUserInput, "unknown kind of search")
	}
	query, err := q.query(text, q.limits.MaxQueryRunes, first, after)
	if err != nil {
		return Page{}, err
	}
	query.Kind = kind
	query.Typos = kind != KindNote && typoTolerant(query.Text)
	return q.search(ctx, viewerID, query, true)
}

// ShopsByName finds the shops of typeID (0: any) whose names match name, best first —
// shops(name:). The name is cleaned as a search query is and may be as long as a shop
// name; a typo in it is forgiven. Errors: BAD_USER_INPUT for a blank or too long name,
// control characters in it, a negative type, a bad page size.
func (q *Queries) ShopsByName(ctx context.Context, name string, typeID int64, first int, after *Position) (Page, error) {
	if typeID < 0 {
		return Page{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	query, err := q.query(name, MaxNameQueryRunes, first, after)
	if err != nil {
		return Page{}, err
	}
	query.Kind, query.NamesOnly, query.TypeID = KindShop, true, typeID
	query.Typos = typoTolerant(query.Text)
	return q.search(ctx, 0, query, false)
}

// query checks and cleans what every search takes.
func (q *Queries) query(text string, maxRunes, first int, after *Position) (Query, error) {
	size, err := q.limits.Pages.Size(first)
	if err != nil {
		return Query{}, err
	}
	if after != nil && (after.ID <= 0 || after.Score < 0) {
		return Query{}, domain.BadCursor()
	}
	text = Normalize(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return Query{}, domain.Errorf(domain.CodeBadUserInput, "query must not be blank")
	case n > maxRunes:
		return Query{}, domain.Errorf(domain.CodeBadUserInput, "query must be at most %d characters", maxRunes)
	}
	if err := domain.CheckText("query", text, false); err != nil {
		return Query{}, err
	}
	return Query{Text: text, Terms: strings.Split(text, " "), After: after, Limit: size + 1}, nil
}

// typoTolerant reports whether a typo may be forgiven in text: one word (a name), long
// enough. Several words are matched each on its own, exactly: a name like all of them
// together is mostly a name that shares one.
func typoTolerant(text string) bool {
	return !strings.Contains(text, " ") && utf8.RuneCountInString(text) >= minTypoRunes
}

// search asks the index for one page (and one hit more, to tell whether another page
// follows) and makes the results: snippets when withSnippets, notes as viewerID sees them.
func (q *Queries) search(ctx context.Context, viewerID int64, query Query, withSnippets bool) (Page, error) {
	hits, err := q.index.Search(ctx, query)
	if err != nil {
		return Page{}, fmt.Errorf("search: %w", err)
	}
	var page Page
	if size := query.Limit - 1; len(hits) > size {
		hits, page.HasNextPage = hits[:size], true
	}
	page.Results = make([]Result, len(hits))
	var blogs []domain.Blog
	for i, h := range hits {
		r := Result{Position: h.Position}
		switch query.Kind {
		case KindShop:
			r.Shop = &h.Shop
			if withSnippets {
				r.Snippet = Snippet(query, h.Shop.Name, h.Shop.Area, h.Shop.Address)
			}
		case KindNote:
			blogs = append(blogs, h.Note)
			// The content first: the title is shown with the note anyway.
			r.Snippet = Snippet(query, h.Note.Title, h.Note.Content, h.Note.Title)
		case KindUser:
			r.User = &h.User
			r.Snippet = Snippet(query, h.User.NickName)
		}
		page.Results[i] = r
	}
	if len(blogs) > 0 {
		views, err := q.notes.Of(ctx, viewerID, blogs)
		if err != nil {
			return Page{}, fmt.Errorf("search: %w", err)
		}
		for i := range page.Results {
			page.Results[i].Note = &views[i]
		}
	}
	return page, nil
}
