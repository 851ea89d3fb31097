package searchtest

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemIndex is an in-memory search.Index over the documents put in it. It matches as
// the stores do (every term in a field, case-insensitively) and ranks by the same tiers;
// within a tier a shorter name ranks higher. When nothing matches exactly, a typo is
// forgiven as on SQLite: at least half of the query's character pairs, counting its first
// and last character as pairs with the start and the end of a word, are in the name.
type MemIndex struct {
	mu    sync.Mutex
	shops map[int64]domain.Shop
	notes map[int64]domain.Blog
	users map[int64]domain.User
}

var _ search.Index = (*MemIndex)(nil)

// NewMemIndex returns an index without documents.
func NewMemIndex() *MemIndex {
	return &MemIndex{shops: map[int64]domain.Shop{}, notes: map[int64]domain.Blog{}, users: map[int64]domain.User{}}
}

// PutShop adds or replaces a shop.
func (x *MemIndex) PutShop(s domain.Shop) { x.mu.Lock(); x.shops[s.ID] = s; x.mu.Unlock() }

// PutNote adds or replaces a note.
func (x *MemIndex) PutNote(b domain.Blog) { x.mu.Lock(); x.notes[b.ID] = b; x.mu.Unlock() }

// PutUser adds or replaces a user.
func (x *MemIndex) PutUser(u domain.User) { x.mu.Lock(); x.users[u.ID] = u; x.mu.Unlock() }

// DeleteShop removes a shop.
func (x *MemIndex) DeleteShop(id int64) { x.mu.Lock(); delete(x.shops, id); x.mu.Unlock() }

// DeleteNote removes a note.
func (x *MemIndex) DeleteNote(id int64) { x.mu.Lock(); delete(x.notes, id); x.mu.Unlock() }

// Search implements search.Index.
func (x *MemIndex) Search(_ context.Context, q search.Query) ([]search.Hit, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	typoPage := q.Typos && q.After != nil && math.Floor(q.After.Score) == search.TierTypo
	hits := x.matches(q, typoPage)
	if q.Typos && q.After == nil && len(hits) == 0 {
		hits = x.matches(q, true)
	}
	slices.SortFunc(hits, func(a, b search.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.ID, a.ID))
	})
	return hits[:min(len(hits), q.Limit)], nil
}

// matches returns the documents matching q exactly, or, with typos, those whose name is
// like q.Text, after q.After.
func (x *MemIndex) matches(q search.Query, typos bool) []search.Hit {
	var hits []search.Hit
	consider := func(h search.Hit, name string, others ...string) {
		if q.NamesOnly {
			others = nil
		}
		score, ok := rank(q, name, others)
		if typos {
			share := pairShare(strings.ToLower(q.Text), strings.ToLower(name))
			score, ok = search.TierTypo+0.999*share, share >= 0.5
		}
		if !ok {
			return
		}
		h.Position = search.Position{Score: score, ID: h.ID}
		if q.After == nil || q.After.Before(h.Position) {
			hits = append(hits, h)
		}
	}
	switch q.Kind {
	case search.KindShop:
		for _, s := range x.shops {
			if q.TypeID == 0 || s.TypeID == q.TypeID {
				consider(search.Hit{Position: search.Position{ID: s.ID}, Shop: s}, s.Name, s.Area, s.Address)
			}
		}
	case search.KindNote:
		for _, b := range x.notes {
			consider(search.Hit{Position: search.Position{ID: b.ID}, Note: b}, b.Title, b.Content)
		}
	case search.KindUser:
		for _, u := range x.users {
			consider(search.Hit{Position: search.Position{ID: u.ID}, User: u}, u.NickName)
		}
	}
	return hits
}

// rank scores a document by its name and other fields; ok is false when it does not
// match exactly.
func rank(q search.Query, name string, others []string) (score float64, ok bool) {
	lname := strings.ToLower(name)
	inName, everywhere := true, true
	for _, t := range q.Terms {
		t = strings.ToLower(t)
		if !strings.Contains(lname, t) {
			inName = false
			if !slices.ContainsFunc(others, func(f string) bool { return strings.Contains(strings.ToLower(f), t) }) {
				everywhere = false
			}
		}
	}
	coverage := float64(utf8.RuneCountInString(q.Text)) / float64(max(1, utf8.RuneCountInString(name)))
	switch {
	case strings.HasPrefix(lname, strings.ToLower(q.Text)):
		return search.TierPrefix + 0.999*min(1, coverage), true
	case inName:
		return search.TierName + 0.999*min(1, coverage), true
	case everywhere:
		return search.TierOther, true
	}
	return 0, false
}

// pairShare is the share of text's character pairs found in name, its first and last
// characters paired with the start and the end of a word of name (the name's own, or
// next to a space or a bracket).
func pairShare(text, name string) float64 {
	rs := []rune(strings.ReplaceAll(text, " ", ""))
	if len(rs) == 0 {
		return 0
	}
	grams := map[string]bool{}
	found := 0
	check := func(g string, ok bool) {
		if !grams[g] {
			grams[g] = true
			if ok {
				found++
			}
		}
	}
	first, last := string(rs[0]), string(rs[len(rs)-1])
	starts := strings.HasPrefix(name, first)
	for _, sep := range []string{" ", "(", "（"} {
		starts = starts || strings.Contains(name, sep+first)
	}
	check("^"+first, starts)
	for i := 0; i+1 < len(rs); i++ {
		p := string(rs[i : i+2])
		check(p, strings.Contains(name, p))
	}
	ends := strings.HasSuffix(name, last)
	for _, sep := range []string{" ", ")", "(", "）", "（"} {
		ends = ends || strings.Contains(name, last+sep)
	}
	check(last+"$", ends)
	return float64(found) / float64(len(grams))
}
