package service_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

const searchQuery = `query($q: String!, $k: SearchKind!, $first: Int, $after: String) {
  search(query: $q, kind: $k, first: $first, after: $after) {
    edges { cursor node { score snippet shop { id name } note { id title content likedByMe } user { id nickName phone } } }
    pageInfo { hasNextPage endCursor }
  }
}`

type searchEdge struct {
	Cursor string
	Node   struct {
		Score   float64
		Snippet string
		Shop    *struct{ ID, Name string }
		Note    *struct {
			ID, Title, Content string
			LikedByMe          bool
		}
		User *struct{ ID, NickName, Phone string }
	}
}

// id is the id of the document an edge holds.
func (e searchEdge) id() string {
	switch {
	case e.Node.Shop != nil:
		return e.Node.Shop.ID
	case e.Node.Note != nil:
		return e.Node.Note.ID
	case e.Node.User != nil:
		return e.Node.User.ID
	}
	return ""
}

type searchPage struct {
	Edges    []searchEdge
	PageInfo struct {
		HasNextPage bool
		EndCursor   *string
	}
}

// searchFor runs one search and returns its page.
func searchFor(t *testing.T, c testsupport.GraphQLClient, kind, query string, first int, after *string) searchPage {
	t.Helper()
	vars := map[string]any{"q": query, "k": kind}
	if first > 0 {
		vars["first"] = first
	}
	if after != nil {
		vars["after"] = *after
	}
	var data struct{ Search searchPage }
	c.Do(t, searchQuery, vars).Decode(t, &data)
	return data.Search
}

func edgeIDs(edges []searchEdge) []string {
	out := make([]string, len(edges))
	for i, e := range edges {
		out[i] = e.id()
	}
	return out
}

// searchNode is a server for the search tests: an ADMIN who creates shops and a writer
// of notes, on env's backends.
type searchNode struct {
	anon, admin, writer testsupport.GraphQLClient
}

func startSearchNode(t *testing.T, env map[string]string) searchNode {
	t.Helper()
	const adminPhone = "13100008888"
	vars := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "BLOG_RATE_PER_USER": "off"}
	for k, v := range env {
		vars[k] = v
	}
	srv := startServer(t, vars)
	n := searchNode{anon: client(srv), admin: client(srv), writer: client(srv)}
	n.admin.Token = login(t, n.anon, adminPhone).AccessToken
	n.writer.Token = login(t, n.anon, "13100008889").AccessToken
	return n
}

func (n searchNode) createShop(t *testing.T, name, address string) string {
	t.Helper()
	var out struct{ CreateShop struct{ ID string } }
	n.admin.Do(t, createShop, map[string]any{"in": map[string]any{
		"name": name, "typeId": "1", "address": address, "longitude": 120.15, "latitude": 30.28}}).Decode(t, &out)
	return out.CreateShop.ID
}

func (n searchNode) createNote(t *testing.T, title, content string) string {
	t.Helper()
	var out struct{ CreateBlog struct{ ID string } }
	n.writer.Do(t, `mutation($t: String!, $c: String!) { createBlog(input: {shopId: "1", title: $t, content: $c, images: []}) { id } }`,
		map[string]any{"t": title, "c": content}).Decode(t, &out)
	return out.CreateBlog.ID
}

// TestSearchOverGraphQL: Query.search finds notes by a Chinese substring of their
// content, shops by the start of their names, ranks a name above an address or a
// content, shows snippets that mark the match and escape the text, and pages exactly.
func TestSearchOverGraphQL(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		n := startSearchNode(t, env)
		note := n.createNote(t, "周末探店", `拱宸桥边的小馆，<b>菠萝油</b> & 奶茶很香`)
		edges := searchFor(t, n.anon, "NOTE", "菠萝油", 0, nil).Edges
		if len(edges) != 1 || edges[0].id() != note {
			t.Fatalf("菠萝油: %+v, want note %s", edges, note)
		}
		e := edges[0].Node
		if e.Note.Title != "周末探店" || e.Shop != nil || e.User != nil || e.Score < 0 {
			t.Errorf("note result %+v", e)
		}
		if want := "拱宸桥边的小馆，&lt;b&gt;<mark>菠萝油</mark>&lt;/b&gt; &amp; 奶茶很香"; e.Snippet != want {
			t.Errorf("snippet %q, want %q", e.Snippet, want)
		}
		if edges := searchFor(t, n.anon, "NOTE", "奶茶", 0, nil).Edges; len(edges) != 1 || edges[0].id() != note {
			t.Errorf("奶茶 (two characters): %v, want note %s", edgeIDs(edges), note)
		}

		byName := n.createShop(t, "鲸落小馆(拱宸桥店)", "上塘路 1 号")
		byAddress := n.createShop(t, "川味面馆", "鲸落街 8 号")
		inName := n.createShop(t, "老鲸落面馆", "湖墅南路")
		edges = searchFor(t, n.anon, "SHOP", "鲸落", 0, nil).Edges
		if got := edgeIDs(edges); !slices.Equal(got, []string{byName, inName, byAddress}) {
			t.Fatalf("鲸落: %v, want the name that starts with it (%s), the one that holds it (%s), then the address (%s)", got, byName, inName, byAddress)
		}
		if edges[0].Node.Snippet != "<mark>鲸落</mark>小馆(拱宸桥店)" || edges[2].Node.Snippet != "<mark>鲸落</mark>街 8 号" {
			t.Errorf("snippets %q, %q", edges[0].Node.Snippet, edges[2].Node.Snippet)
		}
		if edges[0].Node.Score <= edges[1].Node.Score || edges[1].Node.Score <= edges[2].Node.Score {
			t.Errorf("scores %v, %v, %v do not decrease", edges[0].Node.Score, edges[1].Node.Score, edges[2].Node.Score)
		}

		// A title ranks above a content.
		inContent := n.createNote(t, "周末", "鲸落小馆的牛腩面不错")
		inTitle := n.createNote(t, "鲸落小馆的牛腩面", "不错")
		if got := edgeIDs(searchFor(t, n.anon, "NOTE", "牛腩面", 0, nil).Edges); !slices.Equal(got, []string{inTitle, inContent}) {
			t.Errorf("牛腩面: %v, want the title (%s) above the content (%s)", got, inTitle, inContent)
		}

		// Pages of two hold every note once, in the order of one page of all.
		var want []string
		for i := range 5 {
			want = append(want, n.createNote(t, fmt.Sprintf("第%d篇", i), strings.Repeat("鲸落", i+1)+"打卡"))
		}
		all := searchFor(t, n.anon, "NOTE", "鲸落", 50, nil)
		if all.PageInfo.HasNextPage || len(all.Edges) != 7 {
			t.Fatalf("鲸落 in notes: %d results, more: %v; want 7 (the five and the two about 鲸落小馆)", len(all.Edges), all.PageInfo.HasNextPage)
		}
		var paged []string
		var after *string
		for range 10 {
			page := searchFor(t, n.anon, "NOTE", "鲸落", 2, after)
			paged = append(paged, edgeIDs(page.Edges)...)
			if len(page.Edges) > 0 && *page.PageInfo.EndCursor != page.Edges[len(page.Edges)-1].Cursor {
				t.Errorf("endCursor is not the last edge's cursor")
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = page.PageInfo.EndCursor
		}
		if !slices.Equal(paged, edgeIDs(all.Edges)) {
			t.Errorf("pages of 2: %v, want %v", paged, edgeIDs(all.Edges))
		}
		for _, id := range want {
			if !slices.Contains(paged, id) {
				t.Errorf("note %s missing from the pages", id)
			}
		}

		// People by nickname, their phones masked.
		n.writer.Do(t, `mutation { updateProfile(input: {nickName: "鲸落爱吃面"}) { id } }`, nil).Decode(t, &struct{}{})
		people := searchFor(t, n.anon, "USER", "鲸落", 0, nil).Edges
		if len(people) != 1 || people[0].Node.User.NickName != "鲸落爱吃面" || !strings.Contains(people[0].Node.User.Phone, "*") {
			t.Errorf("people: %+v, want the writer with a masked phone", people)
		}
	})
}

// TestSearchForgivesATypoInAName: one wrong character in a shop's name of four
// characters or more still finds it when nothing matches exactly, by Query.search and
// by shops(name:). On PostgreSQL the typo is judged by pg_trgm's word
// similarity; on SQLite by the share of the query's character pairs the name holds (its
// first and last characters paired with the start and the end of a word), at least
// half — so there a typo is forgiven when at most about half the pairs are broken.
func TestSearchForgivesATypoInAName(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		n := startSearchNode(t, env)
		shop := n.createShop(t, "鲸落小馆(拱宸桥店)", "上塘路 1 号")
		for _, typo := range []string{"鲸洛小馆", "鲸落小官", "鲸落少馆"} {
			edges := searchFor(t, n.anon, "SHOP", typo, 0, nil).Edges
			if len(edges) == 0 || edges[0].id() != shop {
				t.Errorf("%s: %v, want shop %s first", typo, edgeIDs(edges), shop)
				continue
			}
			if s := edges[0].Node.Score; s < 1 || s >= 2 {
				t.Errorf("%s: score %v, want the typo tier [1, 2)", typo, s)
			}
			var list struct {
				Shops struct {
					Edges []struct{ Node struct{ ID string } }
				}
			}
			n.anon.Do(t, `query($n: String) { shops(name: $n) { edges { node { id } } } }`, map[string]any{"n": typo}).Decode(t, &list)
			if len(list.Shops.Edges) == 0 || list.Shops.Edges[0].Node.ID != shop {
				t.Errorf("shops(name: %q): %+v, want shop %s first", typo, list.Shops.Edges, shop)
			}
		}
		// Notes are not typo-tolerant: a title is not a name.
		n.createNote(t, "鲸落小馆", "好吃")
		if edges := searchFor(t, n.anon, "NOTE", "鲸洛小馆", 0, nil).Edges; len(edges) != 0 {
			t.Errorf("a note found by a typo: %v", edgeIDs(edges))
		}
	})
}

// TestSearchFollowsChanges: what a search finds follows each create, update and delete
// of notes, shops and nicknames at once.
func TestSearchFollowsChanges(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		n := startSearchNode(t, env)
		found := func(kind, q string) []string { return edgeIDs(searchFor(t, n.anon, kind, q, 0, nil).Edges) }

		note := n.createNote(t, "探店", "这家生煎包很好吃")
		if got := found("NOTE", "生煎包"); !slices.Equal(got, []string{note}) {
			t.Fatalf("a new note: %v", got)
		}
		n.writer.Do(t, `mutation($id: ID!) { updateBlog(id: $id, input: {content: "这家小笼包很好吃"}) { id } }`, map[string]any{"id": note}).Decode(t, &struct{}{})
		if got := found("NOTE", "生煎包"); len(got) != 0 {
			t.Errorf("the old content: %v", got)
		}
		if got := found("NOTE", "小笼包"); !slices.Equal(got, []string{note}) {
			t.Errorf("the new content: %v", got)
		}
		n.writer.Do(t, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": note}).Decode(t, &struct{}{})
		if got := found("NOTE", "小笼包"); len(got) != 0 {
			t.Errorf("a deleted note: %v", got)
		}

		shop := n.createShop(t, "鲸落小馆", "上塘路")
		if got := found("SHOP", "鲸落"); !slices.Equal(got, []string{shop}) {
			t.Fatalf("a new shop: %v", got)
		}
		n.admin.Do(t, updateShop, map[string]any{"in": map[string]any{"id": shop, "name": "鲲鹏饺子馆"}}).Decode(t, &struct{}{})
		if got := found("SHOP", "鲸落"); len(got) != 0 {
			t.Errorf("the old name: %v", got)
		}
		if got := found("SHOP", "鲲鹏"); !slices.Equal(got, []string{shop}) {
			t.Errorf("the new name: %v", got)
		}

		n.writer.Do(t, `mutation { updateProfile(input: {nickName: "鲲鹏食客"}) { id } }`, nil).Decode(t, &struct{}{})
		if got := found("USER", "鲲鹏食客"); len(got) != 1 {
			t.Errorf("a new nickname: %v", got)
		}
		n.writer.Do(t, `mutation { updateProfile(input: {nickName: "老饕"}) { id } }`, nil).Decode(t, &struct{}{})
		if got := found("USER", "鲲鹏食客"); len(got) != 0 {
			t.Errorf("the old nickname: %v", got)
		}
	})
}

// TestSearchRefusesBadInput: a blank query, one past SEARCH_MAX_QUERY_LENGTH, a page past
// SEARCH_PAGE_SIZE_MAX and a cursor the server did not make are BAD_USER_INPUT.
func TestSearchRefusesBadInput(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"SEARCH_MAX_QUERY_LENGTH": "10", "SEARCH_PAGE_SIZE_MAX": "5"})
	c := client(srv)
	cases := map[string]map[string]any{
		"blank":                {"q": "  \t ", "k": "SHOP"},
		"eleven characters":    {"q": "一二三四五 六七八九十", "k": "NOTE"},
		"first above the max":  {"q": "茶", "k": "SHOP", "first": 6},
		"a cursor of shops":    {"q": "茶", "k": "SHOP", "after": "c2hvcDox"},
		"garbage cursor":       {"q": "茶", "k": "SHOP", "after": "bm9wZQ"},
		"a control character":  {"q": "茶\x01", "k": "SHOP"},
		"a negative page size": {"q": "茶", "k": "USER", "first": -1},
	}
	for name, vars := range cases {
		wantCode(t, name, c.Do(t, searchQuery, vars), "BAD_USER_INPUT")
	}
	// Ten characters, and white space around them, are fine.
	var data struct{ Search searchPage }
	c.Do(t, searchQuery, map[string]any{"q": "  一二三四五六七八九十  ", "k": "NOTE", "first": 5}).Decode(t, &data)
}

// TestShopNameSearchIsRanked: shops(name:) lists the shops whose names match, best first
// (a name that starts with it, then one that holds it), pages exactly with its own
// cursors, keeps the type filter, and lists every shop for a blank name.
func TestShopNameSearchIsRanked(t *testing.T) {
	t.Parallel()
	n := startSearchNode(t, nil)
	inName := n.createShop(t, "老鲸落面馆", "湖墅南路")
	atStart := n.createShop(t, "鲸落小馆", "上塘路")
	n.createShop(t, "川味面馆", "鲸落街 8 号") // an address is not a name
	const q = `query($n: String, $t: ID, $first: Int, $after: String) {
  shops(name: $n, typeId: $t, first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`
	type page struct {
		Shops struct {
			Edges []struct {
				Cursor string
				Node   struct{ ID string }
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   *string
			}
		}
	}
	var got []string
	var after *string
	for range 5 {
		var p page
		n.anon.Do(t, q, map[string]any{"n": " 鲸落 ", "first": 1, "after": after}).Decode(t, &p)
		for _, e := range p.Shops.Edges {
			got = append(got, e.Node.ID)
		}
		if !p.Shops.PageInfo.HasNextPage {
			break
		}
		after = p.Shops.PageInfo.EndCursor
	}
	if !slices.Equal(got, []string{atStart, inName}) {
		t.Fatalf("shops named 鲸落, a page of one at a time: %v, want %s then %s", got, atStart, inName)
	}
	var p page
	n.anon.Do(t, q, map[string]any{"n": "鲸落", "t": "2"}).Decode(t, &p)
	if len(p.Shops.Edges) != 0 {
		t.Errorf("shops of type 2 named 鲸落: %+v", p.Shops.Edges)
	}
	wantCode(t, "a name search after a cursor of the plain list", n.anon.Do(t, q, map[string]any{"n": "鲸落", "after": "c2hvcDox"}), "BAD_USER_INPUT")
	n.anon.Do(t, q, map[string]any{"n": "  ", "first": 3}).Decode(t, &p)
	if len(p.Shops.Edges) != 3 || p.Shops.Edges[0].Node.ID != "1" {
		t.Errorf("a blank name: %+v, want the first shops by id", p.Shops.Edges)
	}
}
