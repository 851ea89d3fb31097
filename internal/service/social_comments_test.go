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

	const update = `mutation($id: ID!, $in: UpdateBlogInput!) { updateBlog(id: $id, input: $in) { title content images { url width } } }`
	var upd struct {
		UpdateBlog struct {
			Title, Content string
			Images         []shownImage
		}
	}
	author.Do(t, update, map[string]any{"id": note, "in": map[string]any{"title": " new title ", "images": []string{"/imgs/shops/1-2.jpg"}}}).Decode(t, &upd)
	if upd.UpdateBlog.Title != "new title" || upd.UpdateBlog.Content != "c" || len(upd.UpdateBlog.Images) != 1 ||
		upd.UpdateBlog.Images[0].URL != "/imgs/shops/1-2.jpg" || upd.UpdateBlog.Images[0].Width == nil {
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

// databaseBackends runs fn on SQLite with the embedded Redis and on PostgreSQL with a
// real Redis.
func databaseBackends(t *testing.T, fn func(t *testing.T, env map[string]string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, map[string]string{}) })
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, map[string]string{"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)})
	})
}

// TestCommentRepliesNameTheCommentAndTheUserAnswered: createComment(replyTo:) takes the
// id of the comment answered, and a reply tells that comment (replyTo, and the
// deprecated replyToId) and its author (replyToUser) apart; once the comment answered
// is deleted, replyTo is null while replyToUser still names whom the reply answered.
func TestCommentRepliesNameTheCommentAndTheUserAnswered(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		anon := client(srv)
		a, b, c := client(srv), client(srv), client(srv)
		la, lb := login(t, anon, "13900000801"), login(t, anon, "13900000802")
		a.Token, b.Token = la.AccessToken, lb.AccessToken
		c.Token = login(t, anon, "13900000803").AccessToken
		note := newNote(t, a)
		var top, reply, replyToReply commentAnswer
		a.Do(t, createComment, map[string]any{"b": note, "c": "first"}).Decode(t, &top)
		b.Do(t, createComment, map[string]any{"b": note, "c": "second", "r": top.CreateComment.ID}).Decode(t, &reply)
		c.Do(t, createComment, map[string]any{"b": note, "c": "third", "r": reply.CreateComment.ID}).Decode(t, &replyToReply)
		if r := replyToReply.CreateComment.ReplyToID; r == nil || *r != reply.CreateComment.ID {
			t.Errorf("createComment answered replyToId %v, want the comment answered %s", r, reply.CreateComment.ID)
		}

		type replyNode struct {
			ID        string
			ParentID  *string
			ReplyToID *string
			ReplyTo   *struct {
				ID, Content string
				Author      struct{ ID string }
			}
			ReplyToUser *struct{ ID string }
		}
		replies := func() map[string]replyNode {
			t.Helper()
			var out struct {
				Comments struct {
					Edges []struct {
						Node struct {
							Replies struct{ Edges []struct{ Node replyNode } }
						}
					}
				}
			}
			anon.Do(t, `query($b: ID!) { comments(blogId: $b, first: 5) { edges { node { replies(first: 5) { edges { node {
				id parentId replyToId replyTo { id content author { id } } replyToUser { id } } } } } } } }`,
				map[string]any{"b": note}).Decode(t, &out)
			m := map[string]replyNode{}
			for _, e := range out.Comments.Edges {
				for _, r := range e.Node.Replies.Edges {
					m[r.Node.ID] = r.Node
				}
			}
			return m
		}
		got := replies()
		second, third := got[reply.CreateComment.ID], got[replyToReply.CreateComment.ID]
		if second.ReplyTo == nil || second.ReplyTo.ID != top.CreateComment.ID || second.ReplyTo.Author.ID != la.User.ID ||
			second.ReplyToUser == nil || second.ReplyToUser.ID != la.User.ID ||
			second.ReplyToID == nil || *second.ReplyToID != top.CreateComment.ID {
			t.Errorf("the reply to the top-level comment: %+v", second)
		}
		if third.ReplyTo == nil || third.ReplyTo.ID != reply.CreateComment.ID || third.ReplyTo.Content != "second" ||
			third.ReplyTo.Author.ID != lb.User.ID || third.ReplyToUser == nil || third.ReplyToUser.ID != lb.User.ID ||
			third.ReplyToID == nil || *third.ReplyToID != reply.CreateComment.ID ||
			third.ParentID == nil || *third.ParentID != top.CreateComment.ID {
			t.Errorf("the reply to a reply: %+v", third)
		}

		var del struct{ DeleteComment bool }
		b.Do(t, `mutation($id: ID!) { deleteComment(id: $id) }`, map[string]any{"id": reply.CreateComment.ID}).Decode(t, &del)
		third = replies()[replyToReply.CreateComment.ID]
		if !del.DeleteComment || third.ReplyTo != nil || third.ReplyToUser == nil || third.ReplyToUser.ID != lb.User.ID ||
			third.ReplyToID == nil || *third.ReplyToID != reply.CreateComment.ID {
			t.Errorf("after the comment answered was deleted (%v): %+v", del.DeleteComment, third)
		}
	})
}

// TestDeletesFollowOneRule: deleteComment and deleteBlog answer alike — true when the
// call deleted the item, false (no error) when there is no such item, never or no
// longer, so a retried delete is no error; FORBIDDEN for someone else's item.
func TestDeletesFollowOneRule(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		anon := client(srv)
		author, other := client(srv), client(srv)
		author.Token = login(t, anon, "13900000811").AccessToken
		other.Token = login(t, anon, "13900000812").AccessToken
		note := newNote(t, author)
		var cm commentAnswer
		author.Do(t, createComment, map[string]any{"b": note, "c": "mine"}).Decode(t, &cm)

		for _, m := range []struct{ name, mutation, id string }{
			{"deleteComment", `mutation($id: ID!) { deleteComment(id: $id) }`, cm.CreateComment.ID},
			{"deleteBlog", `mutation($id: ID!) { deleteBlog(id: $id) }`, note},
		} {
			del := func(c testsupport.GraphQLClient, id string) (bool, testsupport.GQLResponse) {
				t.Helper()
				resp := c.Do(t, m.mutation, map[string]any{"id": id})
				var out map[string]bool
				if len(resp.Errors) == 0 {
					resp.Decode(t, &out)
				}
				return out[m.name], resp
			}
			if ok, resp := del(author, "987654321"); ok || len(resp.Errors) > 0 {
				t.Errorf("%s of an unknown id = %v, %+v; want false", m.name, ok, resp.Errors)
			}
			_, resp := del(other, m.id)
			wantCode(t, m.name+" of someone else's", resp, "FORBIDDEN")
			if ok, resp := del(author, m.id); !ok || len(resp.Errors) > 0 {
				t.Errorf("%s of one's own = %v, %+v; want true", m.name, ok, resp.Errors)
			}
			if ok, resp := del(author, m.id); ok || len(resp.Errors) > 0 {
				t.Errorf("%s again = %v, %+v; want false", m.name, ok, resp.Errors)
			}
			if ok, resp := del(other, m.id); ok || len(resp.Errors) > 0 {
				t.Errorf("%s by someone else once it is gone = %v, %+v; want false", m.name, ok, resp.Errors)
			}
			_, resp = del(author, "x")
			wantCode(t, m.name+" of a malformed id", resp, "BAD_USER_INPUT")
		}
	})
}

// TestNoteAuthorsDeleteCommentsOnTheirNotes: besides a comment's author and ADMINs, the
// author of the note deletes any comment on it (a top-level one with its replies, or a
// reply); nobody else does, and the note's author has no say on other notes.
func TestNoteAuthorsDeleteCommentsOnTheirNotes(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		anon := client(srv)
		owner, commenter, stranger := client(srv), client(srv), client(srv)
		owner.Token = login(t, anon, "13900000821").AccessToken
		commenter.Token = login(t, anon, "13900000822").AccessToken
		stranger.Token = login(t, anon, "13900000823").AccessToken
		note, strangersNote := newNote(t, owner), newNote(t, stranger)
		var top, reply, elsewhere commentAnswer
		commenter.Do(t, createComment, map[string]any{"b": note, "c": "spam"}).Decode(t, &top)
		stranger.Do(t, createComment, map[string]any{"b": note, "c": "more spam", "r": top.CreateComment.ID}).Decode(t, &reply)
		commenter.Do(t, createComment, map[string]any{"b": strangersNote, "c": "hi"}).Decode(t, &elsewhere)

		const del = `mutation($id: ID!) { deleteComment(id: $id) }`
		wantCode(t, "a stranger deleting a comment on someone else's note", stranger.Do(t, del, map[string]any{"id": top.CreateComment.ID}), "FORBIDDEN")
		wantCode(t, "a note's author deleting a comment on another note", owner.Do(t, del, map[string]any{"id": elsewhere.CreateComment.ID}), "FORBIDDEN")
		var out struct{ DeleteComment bool }
		owner.Do(t, del, map[string]any{"id": reply.CreateComment.ID}).Decode(t, &out)
		if !out.DeleteComment {
			t.Error("the note's author deleting a reply on it answered false")
		}
		owner.Do(t, del, map[string]any{"id": top.CreateComment.ID}).Decode(t, &out)
		if !out.DeleteComment {
			t.Error("the note's author deleting a comment on it answered false")
		}
		var after struct{ Blog struct{ CommentCount int } }
		anon.Do(t, `query($b: ID!) { blog(id: $b) { commentCount } }`, map[string]any{"b": note}).Decode(t, &after)
		if after.Blog.CommentCount != 0 {
			t.Errorf("commentCount %d after the note's author deleted every comment", after.Blog.CommentCount)
		}
	})
}
