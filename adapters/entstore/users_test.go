package entstore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

func testUsers(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	users := s.Users()
	alice, err := users.CreateUser(ctx, domain.User{Phone: "13800000001", NickName: "小鱼同学", Icon: "/icons/1.png"})
	if err != nil {
		t.Fatal(err)
	}
	if alice.ID <= 0 || alice.Role != domain.RoleUser || alice.Blocked || alice.NickName != "小鱼同学" {
		t.Fatalf("created %+v", alice)
	}
	bob, err := users.CreateUser(ctx, domain.User{Phone: "13800000002"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(bob.NickName, "user_") || len(bob.NickName) != len("user_")+10 {
		t.Fatalf("default nickname %q, want user_ and 10 characters", bob.NickName)
	}
	if _, err := users.CreateUser(ctx, domain.User{Phone: "13800000001"}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate phone: err = %v, want CONFLICT", err)
	}

	byPhone, err := users.UserByPhone(ctx, "13800000001")
	if err != nil || byPhone.ID != alice.ID || byPhone.Icon != "/icons/1.png" {
		t.Fatalf("by phone: %+v, %v", byPhone, err)
	}
	if _, err := users.UserByPhone(ctx, "13800009999"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown phone: err = %v, want NOT_FOUND", err)
	}
	byID, err := users.User(ctx, bob.ID)
	if err != nil || byID.Phone != bob.Phone {
		t.Fatalf("by id: %+v, %v", byID, err)
	}
	if _, err := users.User(ctx, bob.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown id: err = %v, want NOT_FOUND", err)
	}

	list, err := users.UsersByIDs(ctx, []int64{bob.ID, bob.ID + 1000, alice.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != bob.ID || list[1].ID != alice.ID {
		t.Fatalf("by ids = %+v, want bob then alice", list)
	}

	admin, err := users.SetRole(ctx, "13800000001", domain.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if admin.ID != alice.ID || admin.Role != domain.RoleAdmin || admin.NickName != "小鱼同学" {
		t.Fatalf("granted %+v, want alice as admin", admin)
	}
	if u, _ := users.User(ctx, alice.ID); u.Role != domain.RoleAdmin {
		t.Fatalf("stored role %s, want ADMIN", u.Role)
	}
	fresh, err := users.SetRole(ctx, "13800000003", domain.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.ID <= 0 || fresh.Role != domain.RoleAdmin || fresh.Phone != "13800000003" ||
		!strings.HasPrefix(fresh.NickName, "user_") || len(fresh.NickName) != 15 {
		t.Fatalf("created by grant: %+v", fresh)
	}
	back, err := users.SetRole(ctx, "13800000003", domain.RoleUser)
	if err != nil || back.ID != fresh.ID || back.Role != domain.RoleUser || back.NickName != fresh.NickName {
		t.Fatalf("revoke: %+v, %v", back, err)
	}
	if _, err := users.SetRole(ctx, "13800000003", "ROOT"); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown role: err = %v, want BAD_USER_INPUT", err)
	}

	// By id, as the administrators' mutations change accounts.
	if u, err := users.SetRoleByID(ctx, bob.ID, domain.RoleAdmin); err != nil || u.ID != bob.ID || u.Role != domain.RoleAdmin {
		t.Fatalf("set role by id: %+v, %v", u, err)
	}
	if _, err := users.SetRoleByID(ctx, bob.ID+1000, domain.RoleAdmin); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("set role of an unknown id: err = %v, want NOT_FOUND", err)
	}
	if _, err := users.SetRoleByID(ctx, bob.ID, "ROOT"); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown role by id: err = %v, want BAD_USER_INPUT", err)
	}
	if u, err := users.SetBlockedByID(ctx, bob.ID, true); err != nil || !u.Blocked {
		t.Fatalf("block by id: %+v, %v", u, err)
	}
	if u, err := users.SetBlockedByID(ctx, bob.ID, false); err != nil || u.Blocked {
		t.Fatalf("unblock by id: %+v, %v", u, err)
	}
	if _, err := users.SetBlockedByID(ctx, bob.ID+1000, true); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("block an unknown id: err = %v, want NOT_FOUND", err)
	}
}
