package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// statements runs one GraphQL query through the node's handler and returns how many
// database statements it cost, and its data.
func statements(t *testing.T, svc *service.Node, query string) (int64, json.RawMessage) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	var n atomic.Int64
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(entstore.WithStatementCounter(req.Context(), &n))
	rec := httptest.NewRecorder()
	svc.Handler.ServeHTTP(rec, req)
	var resp struct {
		Data   json.RawMessage
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || len(resp.Errors) > 0 || rec.Code != http.StatusOK {
		t.Fatalf("query answered %d: %s", rec.Code, rec.Body.String())
	}
	return n.Load(), resp.Data
}

// seedNotes creates users and their notes about the seeded shops.
func seedNotes(t *testing.T, svc *service.Node, users, count int) {
	t.Helper()
	ctx := context.Background()
	ids := make([]int64, users)
	for i := range ids {
		u, err := svc.Store.Users().CreateUser(ctx, domain.User{Phone: fmt.Sprintf("1371111%04d", i), NickName: fmt.Sprintf("writer %d", i), Role: domain.RoleUser})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = u.ID
	}
	for i := range count {
		v, err := svc.App.Commands.Blogs.CreateBlog(ctx, ids[i%users], notes.BlogInput{
			ShopID: int64(i%10 + 1), Title: fmt.Sprintf("note %d", i), Content: "good", Images: []string{"/imgs/shops/1-1.jpg"},
		})
		if err != nil {
			t.Fatal(err)
		}
		// Four comments by different users, the first with a reply.
		var first int64
		for j := range 4 {
			c, err := svc.App.Commands.Comments.Create(ctx, domain.Actor{UserID: ids[(i+j+1)%users]},
				notes.CommentInput{BlogID: v.Blog.ID, Content: fmt.Sprintf("comment %d", j)})
			if err != nil {
				t.Fatal(err)
			}
			if j == 0 {
				first = c.ID
			}
		}
		if _, err := svc.App.Commands.Comments.Create(ctx, domain.Actor{UserID: ids[i%users]},
			notes.CommentInput{BlogID: v.Blog.ID, Content: "thanks", ReplyTo: first}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNotePageCostsConstantStatements: a page of notes with each note's author, shop,
// the shop's type, its first 3 comments with their authors and each comment's first
// replies with theirs costs the same few statements for 10 notes as for 50 (the edges
// are batched per level, and the shop edge reads through the shop cache), at most 6 on
// cold caches, on PostgreSQL; the same page without those fields costs one.
func TestNotePageCostsConstantStatements(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
		"COMMENT_RATE_PER_USER": "off", "GRAPHQL_MAX_COMPLEXITY": "20000",
		// Under -race on a busy machine the resolvers of one level may take longer than
		// the default wait to ask for their keys, splitting a batch in two: the
		// property under test is the batching, so the loaders wait long enough.
		"DATALOADER_WAIT": "50ms",
	})
	seedNotes(t, svc, 40, 60)
	const withEdges = `{ hotBlogs(first: %d) { edges { node { id title commentCount author { id nickName } shop { id name type { id name } }
		comments(first: 3) { edges { node { id content author { nickName } replyCount } } } } } } }`
	const withReplies = `{ hotBlogs(first: %d) { edges { node { id title commentCount author { id nickName } shop { id name type { id name } }
		comments(first: 3) { edges { node { id content author { nickName } replyCount replies(first: 2) { edges { node { content author { nickName }
			replyTo { id author { nickName } } replyToUser { nickName } } } } } } } } } } }`
	const bare = `{ hotBlogs(first: %d) { edges { node { id title likedCount } } } }`

	cold, _ := statements(t, svc, fmt.Sprintf(withEdges, 50))
	_, data := statements(t, svc, fmt.Sprintf(withReplies, 50))
	var page struct {
		HotBlogs struct {
			Edges []struct {
				Node struct {
					Title        string
					CommentCount int
					Author       struct{ ID, NickName string }
					Shop         *struct {
						ID   string
						Type *struct{ Name string }
					}
					Comments struct {
						Edges []struct {
							Node struct {
								Author     struct{ NickName string }
								ReplyCount int
								Replies    struct {
									Edges []struct {
										Node struct {
											Author  struct{ NickName string }
											ReplyTo *struct {
												ID     string
												Author struct{ NickName string }
											}
											ReplyToUser *struct{ NickName string }
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.HotBlogs.Edges) != 50 {
		t.Fatalf("%d notes, want 50", len(page.HotBlogs.Edges))
	}
	seen := 0
	for _, e := range page.HotBlogs.Edges {
		n := e.Node
		if n.Author.NickName == "" || n.Shop == nil || n.Shop.Type == nil || n.Shop.Type.Name == "" {
			t.Fatalf("a note without its author, shop or shop type: %+v", n)
		}
		cs := n.Comments.Edges
		if !strings.HasPrefix(n.Title, "note ") {
			continue // a seeded note, without comments
		}
		seen++
		if n.CommentCount != 5 || len(cs) != 3 || cs[0].Node.Author.NickName == "" || cs[0].Node.ReplyCount != 1 ||
			len(cs[0].Node.Replies.Edges) != 1 || len(cs[1].Node.Replies.Edges) != 0 {
			t.Fatalf("a note's comments: %+v", n)
		}
		if r := cs[0].Node.Replies.Edges[0].Node; r.ReplyTo == nil || r.ReplyTo.Author.NickName != cs[0].Node.Author.NickName ||
			r.ReplyToUser == nil || r.ReplyToUser.NickName != cs[0].Node.Author.NickName {
			t.Fatalf("a note's comments: %+v", n)
		}
	}
	if seen < 30 {
		t.Fatalf("only %d of the page's notes are the test's", seen)
	}
	small, _ := statements(t, svc, fmt.Sprintf(withEdges, 10))
	large, _ := statements(t, svc, fmt.Sprintf(withEdges, 50))
	t.Logf("statements: 50 notes with edges, cold caches %d; warm: 10 notes %d, 50 notes %d", cold, small, large)
	if cold > 6 {
		t.Errorf("50 notes with their edges cost %d statements on cold caches, want at most 6", cold)
	}
	// A level of the graph costs one statement or none (its keys all loaded already, as
	// when every commenter also wrote a note of the page): a bound, whatever the size.
	if small > 6 || large > 6 {
		t.Errorf("10 notes cost %d statements, 50 cost %d: want at most 6 each", small, large)
	}
	smallReplies, _ := statements(t, svc, fmt.Sprintf(withReplies, 10))
	largeReplies, _ := statements(t, svc, fmt.Sprintf(withReplies, 50))
	t.Logf("with each comment's first replies and their authors: 10 notes %d, 50 notes %d", smallReplies, largeReplies)
	if smallReplies > 8 || largeReplies > 8 {
		t.Errorf("with replies: 10 notes cost %d statements, 50 cost %d: want at most 8 each (two levels more)", smallReplies, largeReplies)
	}
	if n, _ := statements(t, svc, fmt.Sprintf(bare, 50)); n != 1 {
		t.Errorf("50 notes without edges cost %d statements, want 1", n)
	}
}

// TestScreensCostConstantStatements: each screen of a local-life app is one request
// whose cost in statements does not grow with its lists — a shop page (shop, type,
// vouchers, recent notes with authors and ratings), a note page (note, author, shop,
// comments with replies and their authors, likers) and a profile page (profile, counts,
// notes with their shops, followers) — at 10 items per list and at 50.
func TestScreensCostConstantStatements(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
		"COMMENT_RATE_PER_USER": "off", "GRAPHQL_MAX_COMPLEXITY": "100000",
		"DATALOADER_WAIT": "50ms", // as in TestNotePageCostsConstantStatements
		// Each screen is asked for twice: the statements of the resolvers are counted,
		// not the response cache's replays.
		"RESPONSE_CACHE_TTL": "0",
	})
	seedNotes(t, svc, 40, 120)
	ctx := context.Background()
	// A busy note and a well-followed author.
	page, err := svc.App.Queries.Blogs.BlogsOfShop(ctx, 0, 1, 1, 0)
	if err != nil || len(page.Blogs) == 0 {
		t.Fatalf("notes of shop 1: %v", err)
	}
	note, author := page.Blogs[0].Blog.ID, page.Blogs[0].Blog.UserID
	for i := range 60 {
		if _, err := svc.App.Commands.Comments.Create(ctx, domain.Actor{UserID: author}, notes.CommentInput{BlogID: note, Content: fmt.Sprint("more ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 60 {
		u, err := svc.Store.Users().CreateUser(ctx, domain.User{Phone: fmt.Sprintf("1372222%04d", i), NickName: fmt.Sprint("fan ", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.App.Commands.Follows.Follow(ctx, u.ID, author); err != nil {
			t.Fatal(err)
		}
	}
	screens := map[string]string{
		"shop page": `{ shop(id: "1") { name score comments type { name } vouchers { title stock }
			blogs(first: %[1]d) { edges { node { title rating likedCount author { nickName icon } } } } } }`,
		"note page": fmt.Sprintf(`{ blog(id: "%d") { title content images { url width height } rating author { nickName icon } shop { name score }
			comments(first: %%[1]d) { edges { node { content author { nickName } replyCount
				replies(first: 3) { edges { node { content author { nickName } replyTo { content author { nickName } } replyToUser { nickName } } } } } } } }
			blogLikers(blogId: "%d", first: %%[1]d) { nickName } }`, note, note),
		"shop list with each shop's newest notes and their authors": `{ shops(first: %[1]d) { edges { node { name
			blogs(first: 3) { edges { node { title author { nickName } } } } } } } }`,
		"followers with their newest notes": fmt.Sprintf(`{ followers(userId: "%d", first: %%[1]d) { edges { node { nickName blogCount
			blogs(first: 2) { edges { node { title shop { name } } } } } } } }`, author),
		"profile page": fmt.Sprintf(`{ user(id: "%d") { nickName icon city introduction followerCount followingCount blogCount
			blogs(first: %%[1]d) { edges { node { title rating shop { name } } } }
			followers(first: %%[1]d) { edges { node { nickName icon } } } } }`, author),
	}
	for name, q := range screens {
		statements(t, svc, fmt.Sprintf(q, 10)) // warm the caches
		small, _ := statements(t, svc, fmt.Sprintf(q, 10))
		large, _ := statements(t, svc, fmt.Sprintf(q, 50))
		t.Logf("%s: %d statements with 10 items per list, %d with 50", name, small, large)
		if small > 10 || large > 10 || large > small+1 {
			t.Errorf("%s: %d statements with 10 items per list, %d with 50: want the same few", name, small, large)
		}
	}
}

// TestImageSizesCostOneStatementAPage: the sizes of a page's images — 20 notes with 3
// images each, an upload, a demo picture and another site's, or 20 shops with an
// upload among their photos — cost one statement more than the page without them,
// whatever the page's size (the uploads of the whole page are looked up at once); a
// page whose images are demo pictures and other sites' costs none more. On PostgreSQL.
func TestImageSizesCostOneStatementAPage(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "MEDIA_DIR": t.TempDir(),
		"BLOG_RATE_PER_USER": "off", "UPLOAD_RATE_PER_USER": "off", "GRAPHQL_MAX_COMPLEXITY": "100000",
		"DATALOADER_WAIT":    "50ms", // as in TestNotePageCostsConstantStatements
		"RESPONSE_CACHE_TTL": "0",
	})
	ctx := context.Background()
	u, err := svc.Store.Users().CreateUser(ctx, domain.User{Phone: "13733330001", NickName: "photographer", Role: domain.RoleUser})
	if err != nil {
		t.Fatal(err)
	}
	writer := domain.Actor{UserID: u.ID, Role: domain.RoleUser}
	const notesCount, shopsCount = 20, 20
	uploads := make([]domain.Image, notesCount)
	for i := range uploads {
		data := pngOf(t, 10+i, 5+i)
		img, err := svc.App.Commands.UploadImage.Handle(ctx, writer, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		uploads[i] = img
		if _, err := svc.App.Commands.Blogs.CreateBlog(ctx, u.ID, notes.BlogInput{ShopID: int64(i%10 + 1), Title: fmt.Sprint("photos ", i),
			Content: "c", Images: []string{img.URL, "/imgs/shops/1-1.jpg", fmt.Sprintf("https://cdn.example.com/%d.jpg", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	admin := domain.Actor{UserID: u.ID, Role: domain.RoleAdmin}
	for i := range shopsCount {
		photos := fmt.Sprintf("/imgs/shops/1-2.jpg,%s", uploads[i].URL)
		if _, err := svc.App.Commands.Shops.UpdateShop(ctx, admin, int64(i+1), shop.ShopInput{Images: &photos}); err != nil {
			t.Fatal(err)
		}
	}

	const notesPage = `{ blogsOfUser(userId: "%d", first: %d) { edges { node { id %s } } } }`
	const withSizes, pathsOnly = "images { url width height contentType }", "imageUrls"
	var page struct {
		BlogsOfUser struct {
			Edges []struct {
				Node struct{ Images []shownImage }
			}
		}
	}
	for _, n := range []int{5, notesCount} {
		statements(t, svc, fmt.Sprintf(notesPage, u.ID, n, pathsOnly)) // warm the caches
		bare, _ := statements(t, svc, fmt.Sprintf(notesPage, u.ID, n, pathsOnly))
		sized, data := statements(t, svc, fmt.Sprintf(notesPage, u.ID, n, withSizes))
		t.Logf("%d notes of 3 images: %d statements with their sizes, %d with their paths only", n, sized, bare)
		if sized > bare+1 {
			t.Errorf("%d notes of 3 images cost %d statements with their sizes, %d without: want one more at most", n, sized, bare)
		}
		if err := json.Unmarshal(data, &page); err != nil {
			t.Fatal(err)
		}
		if len(page.BlogsOfUser.Edges) != n {
			t.Fatalf("%d notes, want %d", len(page.BlogsOfUser.Edges), n)
		}
		for _, e := range page.BlogsOfUser.Edges {
			imgs := e.Node.Images
			if len(imgs) != 3 || imgs[0].Width == nil || imgs[1].Width == nil || *imgs[1].Width != 480 || imgs[2].Width != nil {
				t.Fatalf("a note's images: %+v", imgs)
			}
		}
	}

	const shopsPage = `{ shops(first: %d) { edges { node { id %s } } } }`
	for _, n := range []int{5, shopsCount} {
		statements(t, svc, fmt.Sprintf(shopsPage, n, "imagesText"))
		bare, _ := statements(t, svc, fmt.Sprintf(shopsPage, n, "imagesText"))
		sized, _ := statements(t, svc, fmt.Sprintf(shopsPage, n, withSizes))
		t.Logf("%d shops with an upload among their photos: %d statements with their sizes, %d without", n, sized, bare)
		if sized > bare+1 {
			t.Errorf("%d shops cost %d statements with their photos' sizes, %d without: want one more at most", n, sized, bare)
		}
	}
	// Only demo pictures: nothing to look up.
	statements(t, svc, fmt.Sprintf(`{ shop(id: "%d") { %s } }`, shopsCount+1, withSizes))
	if n, _ := statements(t, svc, fmt.Sprintf(`{ shop(id: "%d") { %s } }`, shopsCount+1, withSizes)); n != 0 {
		t.Errorf("a cached shop of demo pictures costs %d statements with their sizes, want 0", n)
	}
}
