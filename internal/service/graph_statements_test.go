package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social"
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
func seedNotes(t *testing.T, svc *service.Node, users, notes int) {
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
	for i := range notes {
		if _, err := svc.App.Commands.Blogs.CreateBlog(ctx, ids[i%users], social.BlogInput{
			ShopID: int64(i%10 + 1), Title: fmt.Sprintf("note %d", i), Content: "good", Images: []string{"/imgs/a.jpg"},
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNotePageCostsConstantStatements: a page of notes with each note's author, shop and
// the shop's type costs the same few statements for 10 notes as for 50 (the edges are
// batched per level, and the shop edge reads through the shop cache), on PostgreSQL;
// the same page without those fields costs one.
func TestNotePageCostsConstantStatements(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
	})
	seedNotes(t, svc, 40, 60)
	const withEdges = `{ hotBlogs(first: %d) { edges { node { id title author { id nickName } shop { id name type { id name } } } } } }`
	const bare = `{ hotBlogs(first: %d) { edges { node { id title likedCount } } } }`

	cold, data := statements(t, svc, fmt.Sprintf(withEdges, 50))
	var page struct {
		HotBlogs struct {
			Edges []struct {
				Node struct {
					Author struct{ ID, NickName string }
					Shop   *struct {
						ID   string
						Type *struct{ Name string }
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
	for _, e := range page.HotBlogs.Edges {
		if e.Node.Author.NickName == "" || e.Node.Shop == nil || e.Node.Shop.Type == nil || e.Node.Shop.Type.Name == "" {
			t.Fatalf("a note without its author, shop or shop type: %+v", e.Node)
		}
	}
	small, _ := statements(t, svc, fmt.Sprintf(withEdges, 10))
	large, _ := statements(t, svc, fmt.Sprintf(withEdges, 50))
	t.Logf("statements: 50 notes with edges, cold caches %d; warm: 10 notes %d, 50 notes %d", cold, small, large)
	if cold > 6 {
		t.Errorf("50 notes with author, shop and type cost %d statements on cold caches, want at most 6", cold)
	}
	if small != large {
		t.Errorf("10 notes cost %d statements, 50 cost %d: want the same", small, large)
	}
	if n, _ := statements(t, svc, fmt.Sprintf(bare, 50)); n != 1 {
		t.Errorf("50 notes without edges cost %d statements, want 1", n)
	}
}
