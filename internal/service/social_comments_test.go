package service_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

const createComment = `mutation($b: ID!, $c: String!, $r: ID) { createComment(blogId: $b, content: $c, replyTo: $r) { id parentId replyToId } }`

type commentAnswer struct {
	CreateComment struct {
		ID        string
		ParentID  *string
		ReplyToID *string
	}
}

// newNote publishes a note as c and returns its id.
func newNote(t *testing.T, c testsupport.GraphQLClient) string {
	t.Helper()
	var out struct{ CreateBlog struct{ ID string } }
	c.Do(t, `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: []}) { id } }`, nil).Decode(t, &out)
	return out.CreateBlog.ID
}

// TestCommentsOverHTTP: comments and replies are posted, listed and deleted as clients
// would; 200 concurrent comments, replies and deletes leave commentCount exact; bad
// input, another's comment and a flood of comments are refused with their codes.
func TestCommentsOverHTTP(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "COMMENT_RATE_PER_USER": "off",
		"GRAPHQL_MAX_COMPLEXITY": "50000",
	})
	anon := client(srv)
	users := make([]testsupport.GraphQLClient, 20)
	for i := range users {
		users[i] = client(srv)
		users[i].Token = login(t, anon, fmt.Sprintf("1390000%04d", 200+i)).AccessToken
	}
	note := newNote(t, users[0])
	var top commentAnswer
	users[1].Do(t, createComment, map[string]any{"b": note, "c": "looks good"}).Decode(t, &top)
	var reply, replyToReply commentAnswer
	users[0].Do(t, createComment, map[string]any{"b": note, "c": "thanks", "r": top.CreateComment.ID}).Decode(t, &reply)
	users[2].Do(t, createComment, map[string]any{"b": note, "c": "+1", "r": reply.CreateComment.ID}).Decode(t, &replyToReply)
	if p := replyToReply.CreateComment.ParentID; p == nil || *p != top.CreateComment.ID {
		t.Errorf("a reply to a reply hangs under %v, want the top-level comment %s", p, top.CreateComment.ID)
	}

	// 200 at once: each user comments and replies five times, and deletes every other
	// of its comments.
	var wg sync.WaitGroup
	var mu sync.Mutex
	kept := 3
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := users[i%len(users)]
			vars := map[string]any{"b": note, "c": fmt.Sprintf("comment %d", i)}
			if i%3 == 0 {
				vars["r"] = top.CreateComment.ID
			}
			resp := c.Do(t, createComment, vars)
			if len(resp.Errors) > 0 {
				t.Errorf("comment %d: %+v", i, resp.Errors)
				return
			}
			var out commentAnswer
			resp.Decode(t, &out)
			if i%2 == 0 {
				var del struct{ DeleteComment bool }
				c.Do(t, `mutation($id: ID!) { deleteComment(id: $id) }`, map[string]any{"id": out.CreateComment.ID}).Decode(t, &del)
				if !del.DeleteComment {
					t.Errorf("delete of comment %s: false", out.CreateComment.ID)
				}
				return
			}
			mu.Lock()
			kept++
			mu.Unlock()
		}()
	}
	wg.Wait()

	var page struct {
		Blog struct {
			CommentCount int
			Comments     struct {
				Edges []struct {
					Node struct {
						ID         string
						ReplyCount int
						Replies    struct {
							Edges    []struct{ Node struct{ ID string } }
							PageInfo struct{ HasNextPage bool }
						}
					}
				}
				PageInfo struct{ HasNextPage bool }
			}
		}
	}
	anon.Do(t, `query($b: ID!) { blog(id: $b) { commentCount comments(first: 100) { edges { node { id replyCount
		replies(first: 100) { edges { node { id } } pageInfo { hasNextPage } } } } pageInfo { hasNextPage } } } }`,
		map[string]any{"b": note}).Decode(t, &page)
	rows := 0
	for _, e := range page.Blog.Comments.Edges {
		rows += 1 + len(e.Node.Replies.Edges)
		if e.Node.ReplyCount != len(e.Node.Replies.Edges) || e.Node.Replies.PageInfo.HasNextPage {
			t.Errorf("comment %s counts %d replies, lists %d", e.Node.ID, e.Node.ReplyCount, len(e.Node.Replies.Edges))
		}
	}
	if page.Blog.CommentCount != kept || rows != kept || page.Blog.Comments.PageInfo.HasNextPage {
		t.Errorf("commentCount %d, comments listed %d, want %d", page.Blog.CommentCount, rows, kept)
	}

	// Refusals.
	wantCode(t, "an empty comment", users[3].Do(t, createComment, map[string]any{"b": note, "c": "   "}), "BAD_USER_INPUT")
	wantCode(t, "a long comment", users[3].Do(t, createComment, map[string]any{"b": note, "c": strings.Repeat("长", 1001)}), "BAD_USER_INPUT")
	wantCode(t, "a comment on no note", users[3].Do(t, createComment, map[string]any{"b": "999999999", "c": "hi"}), "NOT_FOUND")
	wantCode(t, "a reply to another note's comment", users[3].Do(t, createComment,
		map[string]any{"b": newNote(t, users[3]), "c": "hi", "r": top.CreateComment.ID}), "BAD_USER_INPUT")
	wantCode(t, "deleting another's comment", users[3].Do(t, `mutation($id: ID!) { deleteComment(id: $id) }`,
		map[string]any{"id": top.CreateComment.ID}), "FORBIDDEN")
	wantCode(t, "commenting anonymously", anon.Do(t, createComment, map[string]any{"b": note, "c": "hi"}), "UNAUTHENTICATED")
}

// TestCommentRateLimit: past COMMENT_RATE_PER_USER a user's comments are RATE_LIMITED;
// another user still comments.
func TestCommentRateLimit(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"COMMENT_RATE_PER_USER": "2/1m"})
	anon := client(srv)
	a, b := client(srv), client(srv)
	a.Token = login(t, anon, "13900000301").AccessToken
	b.Token = login(t, anon, "13900000302").AccessToken
	note := newNote(t, a)
	for range 2 {
		a.Do(t, createComment, map[string]any{"b": note, "c": "hi"}).Decode(t, &commentAnswer{})
	}
	wantCode(t, "a third comment within the minute", a.Do(t, createComment, map[string]any{"b": note, "c": "hi"}), "RATE_LIMITED")
	b.Do(t, createComment, map[string]any{"b": note, "c": "hi"}).Decode(t, &commentAnswer{})
}

// TestNotesAreEditedAndDeletedByTheirAuthors: an author edits and deletes their note
// (its comments go with it); another user may do neither; a deleted note is gone.
func TestNotesAreEditedAndDeletedByTheirAuthors(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); editAndDeleteNotes(t, nil) })
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		editAndDeleteNotes(t, map[string]string{"DATABASE_URL": testsupport.PostgresURL(t)})
	})
}

func editAndDeleteNotes(t *testing.T, env map[string]string) {
	srv := startServer(t, env)
	anon := client(srv)
	author, other := client(srv), client(srv)
	author.Token = login(t, anon, "13900000701").AccessToken
	other.Token = login(t, anon, "13900000702").AccessToken
	note := newNote(t, author)
	other.Do(t, createComment, map[string]any{"b": note, "c": "nice"}).Decode(t, &commentAnswer{})

	const update = `mutation($id: ID!, $in: UpdateBlogInput!) { updateBlog(id: $id, input: $in) { title content images } }`
	var upd struct {
		UpdateBlog struct {
			Title, Content string
			Images         []string
		}
	}
	author.Do(t, update, map[string]any{"id": note, "in": map[string]any{"title": " new title ", "images": []string{"/imgs/shops/1-2.jpg"}}}).Decode(t, &upd)
	if upd.UpdateBlog.Title != "new title" || upd.UpdateBlog.Content != "c" || len(upd.UpdateBlog.Images) != 1 {
		t.Errorf("updated note %+v", upd.UpdateBlog)
	}
	wantCode(t, "editing another's note", other.Do(t, update, map[string]any{"id": note, "in": map[string]any{"title": "x"}}), "FORBIDDEN")
	wantCode(t, "an empty title", author.Do(t, update, map[string]any{"id": note, "in": map[string]any{"title": " "}}), "BAD_USER_INPUT")
	wantCode(t, "editing no note", author.Do(t, update, map[string]any{"id": "987654321", "in": map[string]any{"title": "x"}}), "NOT_FOUND")

	const del = `mutation($id: ID!) { deleteBlog(id: $id) }`
	wantCode(t, "deleting another's note", other.Do(t, del, map[string]any{"id": note}), "FORBIDDEN")
	var out struct{ DeleteBlog bool }
	author.Do(t, del, map[string]any{"id": note}).Decode(t, &out)
	if !out.DeleteBlog {
		t.Fatal("delete answered false")
	}
	author.Do(t, del, map[string]any{"id": note}).Decode(t, &out)
	if out.DeleteBlog {
		t.Error("a second delete answered true")
	}
	var after struct {
		Blog     *struct{ ID string }
		Comments struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	anon.Do(t, `query($b: ID!) { blog(id: $b) { id } comments(blogId: $b) { edges { node { id } } } }`, map[string]any{"b": note}).Decode(t, &after)
	if after.Blog != nil || len(after.Comments.Edges) != 0 {
		t.Errorf("after the delete: %+v", after)
	}
}
