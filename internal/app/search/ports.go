// Package search holds the use cases that find shops, notes and people by their text:
// Query.search and the shops(name:) list. The rules are here — how a query is cleaned
// and bounded, which documents may be found with a typo, how a page is cut and what a
// result's snippet shows — and the index that matches and ranks is a port (Index), which
// the relational store implements with the database's own text search.
package search

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Kind is what a search looks for.
type Kind int

// The kinds of documents searched.
const (
	// KindShop: shops, by name, area and address.
	KindShop Kind = iota + 1
	// KindNote: notes, by title and content.
	KindNote
	// KindUser: people, by nickname.
	KindUser
)

// Position is where a result stands in its ranked list: by score, then by id, both
// descending.
type Position struct {
	Score float64
	ID    int64
}

// Before reports whether p comes before o in a ranked list.
func (p Position) Before(o Position) bool {
	return p.Score > o.Score || p.Score == o.Score && p.ID > o.ID
}

// Query is what the index is asked.
type Query struct {
	Kind Kind
	// Text is the query as the user meant it: trimmed, each run of white space one
	// space.
	Text string
	// Terms are Text's words. A document matches when every term is in one of its
	// searched fields (case-insensitively, as a substring: Chinese has no spaces between
	// words), or, with Typos, when its name is like Text.
	Terms []string
	// Typos: when no document matches exactly, the documents whose name (a shop's name,
	// a user's nickname) is like Text match instead — a wrong, missing or extra
	// character — at TierTypo, which no exact match reaches. Each index says how alike
	// is enough. Set for one-word queries only.
	Typos bool
	// NamesOnly searches shops' names only, not their area and address.
	NamesOnly bool
	// TypeID restricts shops to one type (0: any).
	TypeID int64
	// After is where the previous page ended (nil: from the top).
	After *Position
	// Limit is the most hits to return.
	Limit int
}

// Tiers of a hit's score: Score is a tier plus a relevance in [0, 1) within it, so a
// document of a higher tier always ranks above one of a lower tier. The name is a shop's
// name, a note's title, a user's nickname.
const (
	// TierOther: the terms are found in other fields only (an address, a note's content).
	TierOther = 0
	// TierTypo: nothing matches the query, and the name is like it (Query.Typos).
	TierTypo = 1
	// TierName: the name holds every term.
	TierName = 2
	// TierPrefix: the name starts with the query.
	TierPrefix = 3
)

// Hit is a document found, with its place in the ranked list; only the field of the
// query's kind is set.
type Hit struct {
	Position
	Shop domain.Shop
	Note domain.Blog
	User domain.User
}

// Index finds documents by their text.
type Index interface {
	// Search returns up to q.Limit documents of q.Kind matching q, best first — by
	// score (a tier, see TierPrefix …, plus a relevance below 1), then by id, both
	// descending — strictly after q.After. A document created, changed or deleted
	// before the call is found as it is now. Errors are infrastructure failures only.
	Search(ctx context.Context, q Query) ([]Hit, error)
}

// NoteViews turns notes into what a reader sees (whether the reader likes each).
type NoteViews interface {
	// Of returns the views of blogs as viewerID (0: anonymous) sees them, in order.
	Of(ctx context.Context, viewerID int64, blogs []domain.Blog) ([]notes.BlogView, error)
}
