package searchtest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store is an index with the documents it finds: each case adds the documents it
// searches through these, and the index must find them as they are now.
type Store struct {
	Index search.Index
	// Types are two shop types shops may belong to.
	Types [2]int64
	// AddShop stores a shop (of Types[0] when TypeID is 0) and returns it with its id.
	AddShop func(t *testing.T, s domain.Shop) domain.Shop
	// RenameShop changes a shop's name.
	RenameShop func(t *testing.T, id int64, name string)
	// DeleteShop deletes a shop.
	DeleteShop func(t *testing.T, id int64)
	// AddNote stores a note and returns it with its id.
	AddNote func(t *testing.T, title, content string) domain.Blog
	// EditNote changes a note's title and content.
	EditNote func(t *testing.T, id int64, title, content string)
	// DeleteNote deletes a note.
	DeleteNote func(t *testing.T, id int64)
	// AddUser stores a user with a nickname and returns it with its id.
	AddUser func(t *testing.T, nickName string) domain.User
	// RenameUser changes a user's nickname.
	RenameUser func(t *testing.T, id int64, nickName string)
}

// IndexContract is what every search.Index must do, as its doc comments say. newStore
// returns a store whose index holds no document a case did not add.
func IndexContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[Store]{Name: "chinese substrings of a note are found, of two characters and more", Run: noteSubstrings},
		contracttest.Case[Store]{Name: "a shop is found by the start of its name", Run: shopPrefix},
		contracttest.Case[Store]{Name: "the name ranks above other fields, its start above its middle", Run: tiers},
		contracttest.Case[Store]{Name: "every term must be found, each in any field", Run: everyTerm},
		contracttest.Case[Store]{Name: "letters match in any case; wildcards are plain characters", Run: caseAndWildcards},
		contracttest.Case[Store]{Name: "shops by name only and of one type", Run: namesAndTypes},
		contracttest.Case[Store]{Name: "pages after a position hold every hit once, in order", Run: paging},
		contracttest.Case[Store]{Name: "a wrong character in a name is forgiven when typos are and nothing matches exactly", Run: typos},
		contracttest.Case[Store]{Name: "documents are found as they are after a change or a delete", Run: followsChanges},
		contracttest.Case[Store]{Name: "people are found by nickname", Run: users},
	)
}

// find runs q (Terms from Text, Limit 100 unless set) and returns the hits.
func find(t *testing.T, s Store, q search.Query) []search.Hit {
	t.Helper()
	if q.Terms == nil {
		q.Terms = splitTerms(q.Text)
	}
	if q.Limit == 0 {
		q.Limit = 100
	}
	hits, err := s.Index.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	for i, h := range hits {
		if h.Score < 0 || math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
			t.Fatalf("search %q: hit %d has score %v", q.Text, h.ID, h.Score)
		}
		if i > 0 && !hits[i-1].Before(h.Position) {
			t.Fatalf("search %q: hit %+v does not come after %+v", q.Text, h.Position, hits[i-1].Position)
		}
		if q.After != nil && !q.After.Before(h.Position) {
			t.Fatalf("search %q: hit %+v is not after %+v", q.Text, h.Position, *q.After)
		}
		var docID int64
		switch q.Kind {
		case search.KindShop:
			docID = h.Shop.ID
		case search.KindNote:
			docID = h.Note.ID
		case search.KindUser:
			docID = h.User.ID
		}
		if docID != h.ID {
			t.Fatalf("search %q: hit %d holds document %d", q.Text, h.ID, docID)
		}
	}
	return hits
}

func splitTerms(text string) []string {
	var out []string
	word := []rune{}
	for _, r := range text + " " {
		if r == ' ' {
			if len(word) > 0 {
				out = append(out, string(word))
			}
			word = word[:0]
			continue
		}
		word = append(word, r)
	}
	return out
}

func hitIDs(hits []search.Hit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// wantIDs fails unless hits are exactly want, in that order.
func wantIDs(t *testing.T, what string, hits []search.Hit, want ...int64) {
	t.Helper()
	if got := hitIDs(hits); !slices.Equal(got, want) {
		t.Fatalf("%s: hits %v (positions %v), want %v", what, got, positions(hits), want)
	}
}

// wantSet fails unless hits are want, in any order.
func wantSet(t *testing.T, what string, hits []search.Hit, want ...int64) {
	t.Helper()
	got := slices.Sorted(slices.Values(hitIDs(hits)))
	if !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("%s: hits %v, want %v in any order", what, hitIDs(hits), want)
	}
}

func positions(hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%d@%.4f", h.ID, h.Score)
	}
	return out
}

// tierOf is the tier of a hit's score.
func tierOf(h search.Hit) int { return int(math.Floor(h.Score)) }

func noteSubstrings(t *testing.T, s Store) {
	teahouse := s.AddNote(t, "周末去哪儿", "拱宸桥边上的茶餐厅，菠萝油很好吃。")
	coffee := s.AddNote(t, "一杯咖啡", "手冲咖啡，环境安静")
	hits := find(t, s, search.Query{Kind: search.KindNote, Text: "茶餐厅"})
	wantIDs(t, "茶餐厅", hits, teahouse.ID)
	if hits[0].Note.Title != "周末去哪儿" || hits[0].Note.Content != "拱宸桥边上的茶餐厅，菠萝油很好吃。" {
		t.Fatalf("hit holds %+v, want the note as stored", hits[0].Note)
	}
	wantIDs(t, "菠萝 (two characters)", find(t, s, search.Query{Kind: search.KindNote, Text: "菠萝"}), teahouse.ID)
	wantIDs(t, "咖 (one character)", find(t, s, search.Query{Kind: search.KindNote, Text: "咖"}), coffee.ID)
	wantIDs(t, "很好吃 at the end", find(t, s, search.Query{Kind: search.KindNote, Text: "很好吃"}), teahouse.ID)
	wantIDs(t, "火锅, in no note", find(t, s, search.Query{Kind: search.KindNote, Text: "火锅"}))
	wantIDs(t, "a shop's kind finds no note", find(t, s, search.Query{Kind: search.KindShop, Text: "茶餐厅"}))
}

func shopPrefix(t *testing.T, s Store) {
	hotpot := s.AddShop(t, domain.Shop{Name: "海底捞火锅(水晶城店)", Area: "大关", Address: "上塘路458号"})
	s.AddShop(t, domain.Shop{Name: "外婆家(湖滨店)", Area: "湖滨", Address: "延安路"})
	for _, q := range []string{"海", "海底", "海底捞", "海底捞火锅"} {
		hits := find(t, s, search.Query{Kind: search.KindShop, Text: q})
		wantIDs(t, q, hits, hotpot.ID)
		if tierOf(hits[0]) != search.TierPrefix || hits[0].Shop.Name != hotpot.Name || hits[0].Shop.Area != "大关" {
			t.Fatalf("%s: hit %+v, want the shop at the prefix tier", q, hits[0])
		}
	}
}

func tiers(t *testing.T, s Store) {
	inContent := s.AddNote(t, "周末", "路过一家茶餐厅，奶茶不错")
	inTitle := s.AddNote(t, "好吃的茶餐厅", "菠萝包")
	atStart := s.AddNote(t, "茶餐厅推荐", "冻柠茶")
	hits := find(t, s, search.Query{Kind: search.KindNote, Text: "茶餐厅"})
	wantIDs(t, "notes", hits, atStart.ID, inTitle.ID, inContent.ID)
	if got := []int{tierOf(hits[0]), tierOf(hits[1]), tierOf(hits[2])}; !slices.Equal(got, []int{search.TierPrefix, search.TierName, search.TierOther}) {
		t.Fatalf("notes: tiers %v", got)
	}

	inAddress := s.AddShop(t, domain.Shop{Name: "川菜馆", Address: "火锅街1号"})
	inName := s.AddShop(t, domain.Shop{Name: "海底捞火锅"})
	nameStart := s.AddShop(t, domain.Shop{Name: "火锅大王"})
	inArea := s.AddShop(t, domain.Shop{Name: "面馆", Area: "火锅城"})
	hits = find(t, s, search.Query{Kind: search.KindShop, Text: "火锅"})
	if got := hitIDs(hits[:2]); !slices.Equal(got, []int64{nameStart.ID, inName.ID}) || len(hits) != 4 {
		t.Fatalf("shops: %v, want %d then %d, then the two others", positions(hits), nameStart.ID, inName.ID)
	}
	wantSet(t, "shops", hits[2:], inAddress.ID, inArea.ID)
	if tierOf(hits[2]) != search.TierOther || tierOf(hits[3]) != search.TierOther {
		t.Fatalf("shops: %v, want the area and address at the lowest tier", positions(hits))
	}
}

func everyTerm(t *testing.T, s Store) {
	hotpot := s.AddShop(t, domain.Shop{Name: "海底捞火锅", Area: "湖滨", Address: "延安路"})
	s.AddShop(t, domain.Shop{Name: "湖滨面馆", Area: "湖滨"})
	wantIDs(t, "火锅 湖滨", find(t, s, search.Query{Kind: search.KindShop, Text: "火锅 湖滨"}), hotpot.ID)
	wantIDs(t, "湖滨 延安路", find(t, s, search.Query{Kind: search.KindShop, Text: "湖滨 延安路"}), hotpot.ID)
	wantIDs(t, "火锅 西溪", find(t, s, search.Query{Kind: search.KindShop, Text: "火锅 西溪"}))
	note := s.AddNote(t, "周末 brunch", "班尼迪克蛋很好")
	wantIDs(t, "brunch 蛋", find(t, s, search.Query{Kind: search.KindNote, Text: "brunch 蛋"}), note.ID)
	wantIDs(t, "brunch 咖啡", find(t, s, search.Query{Kind: search.KindNote, Text: "brunch 咖啡"}))
}

func caseAndWildcards(t *testing.T, s Store) {
	blue := s.AddShop(t, domain.Shop{Name: "Blue Cafe"})
	lagoon := s.AddShop(t, domain.Shop{Name: "blue lagoon bar"})
	noodles := s.AddShop(t, domain.Shop{Name: "100% Noodles"})
	s.AddShop(t, domain.Shop{Name: "INLOVE KTV", Address: "100 Lake Road"})
	wantSet(t, "BLUE", find(t, s, search.Query{Kind: search.KindShop, Text: "BLUE"}), blue.ID, lagoon.ID)
	wantIDs(t, "LAGOON", find(t, s, search.Query{Kind: search.KindShop, Text: "LAGOON"}), lagoon.ID)
	wantIDs(t, "100%", find(t, s, search.Query{Kind: search.KindShop, Text: "100%"}), noodles.ID)
	wantIDs(t, "%", find(t, s, search.Query{Kind: search.KindShop, Text: "%"}), noodles.ID)
	wantIDs(t, "e_c (an underscore)", find(t, s, search.Query{Kind: search.KindShop, Text: "e_c"}))
	wantIDs(t, `a backslash`, find(t, s, search.Query{Kind: search.KindShop, Text: `\`}))
	wantIDs(t, `a double quote`, find(t, s, search.Query{Kind: search.KindShop, Text: `"blue"`}))
	wantIDs(t, "nothing like it", find(t, s, search.Query{Kind: search.KindShop, Text: "nothing like it"}))
}

func namesAndTypes(t *testing.T, s Store) {
	named := s.AddShop(t, domain.Shop{Name: "湖滨茶馆", TypeID: s.Types[0]})
	inArea := s.AddShop(t, domain.Shop{Name: "银泰", Area: "湖滨", TypeID: s.Types[0]})
	otherType := s.AddShop(t, domain.Shop{Name: "湖滨饭店", TypeID: s.Types[1]})
	q := search.Query{Kind: search.KindShop, Text: "湖滨", TypeID: s.Types[0]}
	wantIDs(t, "湖滨 of the first type", find(t, s, q), named.ID, inArea.ID)
	q.NamesOnly = true
	wantIDs(t, "湖滨 in names of the first type", find(t, s, q), named.ID)
	q.TypeID = 0
	wantSet(t, "湖滨 in names of any type", find(t, s, q), named.ID, otherType.ID)
	q.TypeID = s.Types[1] + s.Types[0] + 1000
	wantIDs(t, "an unknown type", find(t, s, q))
}

func paging(t *testing.T, s Store) {
	for _, sh := range []domain.Shop{
		{Name: "面馆一号"}, {Name: "老面馆"}, {Name: "面馆"}, {Name: "川味", Address: "面馆巷"},
		{Name: "兰州拉面馆"}, {Name: "面馆二号"}, {Name: "饺子", Area: "面馆街"}, {Name: "面馆一号"},
	} {
		s.AddShop(t, sh)
	}
	whole := find(t, s, search.Query{Kind: search.KindShop, Text: "面馆"})
	if len(whole) != 8 {
		t.Fatalf("面馆: %d hits, want 8", len(whole))
	}
	for _, size := range []int{1, 2, 3} {
		var got []search.Hit
		var after *search.Position
		for range 20 {
			page := find(t, s, search.Query{Kind: search.KindShop, Text: "面馆", Limit: size, After: after})
			if len(page) > size {
				t.Fatalf("page of %d holds %d", size, len(page))
			}
			got = append(got, page...)
			if len(page) < size {
				break
			}
			after = &page[len(page)-1].Position
		}
		if !slices.Equal(hitIDs(got), hitIDs(whole)) {
			t.Fatalf("pages of %d: %v, want %v", size, positions(got), positions(whole))
		}
	}
}

func typos(t *testing.T, s Store) {
	hotpot := s.AddShop(t, domain.Shop{Name: "海底捞火锅(水晶城店)"})
	tea := s.AddShop(t, domain.Shop{Name: "绿茶餐厅"})
	s.AddShop(t, domain.Shop{Name: "外婆家"})
	fish := s.AddUser(t, "小鱼儿爱吃鱼")
	for _, c := range []struct {
		text string
		kind search.Kind
		want int64
	}{
		{"海底劳火锅", search.KindShop, hotpot.ID},
		{"绿荼餐厅", search.KindShop, tea.ID},
		{"绿茶餐庁", search.KindShop, tea.ID},
		{"小鱼儿爰吃鱼", search.KindUser, fish.ID},
	} {
		q := search.Query{Kind: c.kind, Text: c.text}
		wantIDs(t, c.text+" without typos", find(t, s, q))
		q.Typos = true
		hits := find(t, s, q)
		wantIDs(t, c.text+" with typos", hits, c.want)
		if tierOf(hits[0]) != search.TierTypo {
			t.Fatalf("%s: %v, want the typo tier", c.text, positions(hits))
		}
	}
	// A name like the query is not listed when something matches it exactly.
	s.AddShop(t, domain.Shop{Name: "绿茶餐庁"})
	exact := find(t, s, search.Query{Kind: search.KindShop, Text: "绿茶餐厅", Typos: true})
	wantIDs(t, "绿茶餐厅 with typos", exact, tea.ID)
	if tierOf(exact[0]) != search.TierPrefix {
		t.Fatalf("绿茶餐厅 with typos: %v, want the prefix tier", positions(exact))
	}
	wantIDs(t, "a name quite unlike any", find(t, s, search.Query{Kind: search.KindShop, Text: "肯德基汉堡", Typos: true}))
	// Names like the query page as exact matches do.
	branch := s.AddShop(t, domain.Shop{Name: "海底捞火锅(湖滨店)"})
	var paged []search.Hit
	var after *search.Position
	for range 5 {
		page := find(t, s, search.Query{Kind: search.KindShop, Text: "海底劳火锅", Typos: true, Limit: 1, After: after})
		paged = append(paged, page...)
		if len(page) == 0 {
			break
		}
		after = &page[0].Position
	}
	wantSet(t, "海底劳火锅 a page of one at a time", paged, hotpot.ID, branch.ID)
}

func followsChanges(t *testing.T, s Store) {
	shop := s.AddShop(t, domain.Shop{Name: "老街面馆"})
	q := func(text string) search.Query { return search.Query{Kind: search.KindShop, Text: text} }
	wantIDs(t, "a new shop", find(t, s, q("面馆")), shop.ID)
	s.RenameShop(t, shop.ID, "新街饺子馆")
	wantIDs(t, "the old name", find(t, s, q("面馆")))
	hits := find(t, s, q("饺子"))
	wantIDs(t, "the new name", hits, shop.ID)
	if hits[0].Shop.Name != "新街饺子馆" {
		t.Fatalf("renamed shop reads %q", hits[0].Shop.Name)
	}
	s.DeleteShop(t, shop.ID)
	wantIDs(t, "a deleted shop", find(t, s, q("饺子")))

	note := s.AddNote(t, "探店", "这家生煎包很好吃")
	nq := func(text string) search.Query { return search.Query{Kind: search.KindNote, Text: text} }
	wantIDs(t, "a new note", find(t, s, nq("生煎包")), note.ID)
	s.EditNote(t, note.ID, "探店", "这家小笼包很好吃")
	wantIDs(t, "the old content", find(t, s, nq("生煎包")))
	wantIDs(t, "the new content", find(t, s, nq("小笼包")), note.ID)
	s.DeleteNote(t, note.ID)
	wantIDs(t, "a deleted note", find(t, s, nq("小笼包")))

	user := s.AddUser(t, "吃货小王")
	uq := func(text string) search.Query { return search.Query{Kind: search.KindUser, Text: text} }
	wantIDs(t, "a new user", find(t, s, uq("小王")), user.ID)
	s.RenameUser(t, user.ID, "吃货老李")
	wantIDs(t, "the old nickname", find(t, s, uq("小王")))
	wantIDs(t, "the new nickname", find(t, s, uq("老李")), user.ID)
}

func users(t *testing.T, s Store) {
	small := s.AddUser(t, "小鱼")
	big := s.AddUser(t, "大鱼海棠")
	s.AddUser(t, "吃货")
	wantSet(t, "鱼", find(t, s, search.Query{Kind: search.KindUser, Text: "鱼"}), small.ID, big.ID)
	hits := find(t, s, search.Query{Kind: search.KindUser, Text: "大鱼"})
	wantIDs(t, "大鱼", hits, big.ID)
	if hits[0].User.NickName != "大鱼海棠" {
		t.Fatalf("hit holds %+v", hits[0].User)
	}
}
