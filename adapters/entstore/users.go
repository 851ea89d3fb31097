package entstore

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	entshop "github.com/dealspot/dealspot/ent/shop"
	"github.com/dealspot/dealspot/ent/user"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/domain"
)

// Users reads and writes user accounts.
type Users struct {
	client  *ent.Client
	raw     *rawSQL
	dialect string
}

var _ auth.Users = (*Users)(nil)
var _ social.Users = (*Users)(nil)

// Users returns the user repository.
func (s *Store) Users() *Users { return &Users{client: s.client, raw: s.raw(), dialect: s.dialect} }

// Credits returns the store of the users' credits: their awards and each user's sum.
func (r *Users) Credits() *Credits { return &Credits{o: r.raw} }

// UserByPhone returns the user with that phone number, or domain.ErrNotFound.
func (r *Users) UserByPhone(ctx context.Context, phone string) (domain.User, error) {
	row, err := r.client.User.Query().Where(user.Phone(phone)).Only(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("load user by phone: %w", notFound(err, "user"))
	}
	return toUser(row), nil
}

// User returns one user, or domain.ErrNotFound.
func (r *Users) User(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.client.User.Get(ctx, id)
	if err != nil {
		return domain.User{}, fmt.Errorf("load user %d: %w", id, notFound(err, "user"))
	}
	return toUser(row), nil
}

// CreateUser stores a new user and returns it with its id. An empty role means USER and
// an empty nickname gets a random "user_…" one. A phone number already registered is a
// domain.ErrConflict error.
func (r *Users) CreateUser(ctx context.Context, u domain.User) (domain.User, error) {
	if u.Role == "" {
		u.Role = domain.RoleUser
	}
	if !u.Role.Valid() {
		return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "unknown role %q", u.Role)
	}
	if u.NickName == "" {
		u.NickName = RandomNickName()
	}
	row, err := r.client.User.Create().
		SetPhone(u.Phone).
		SetNickName(u.NickName).
		SetIcon(u.Icon).
		SetRole(user.Role(u.Role)).
		SetBlocked(u.Blocked).
		Save(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("create user: %w",
			translate(err, "user", domain.CodeConflict, "phone number already registered"))
	}
	return toUser(row), nil
}

// UsersByIDs returns the users with the given ids, in the order of ids; ids with no user
// are left out.
func (r *Users) UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := r.client.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load users by ids: %w", err)
	}
	byID := make(map[int64]*ent.User, len(rows))
	for _, u := range rows {
		byID[u.ID] = u
	}
	out := make([]domain.User, 0, len(rows))
	for _, id := range ids {
		if u, ok := byID[id]; ok {
			out = append(out, toUser(u))
		}
	}
	return out, nil
}

// SetRole gives the user with that phone number the role, creating the user (with a
// random nickname) when there is none yet, and returns the user.
func (r *Users) SetRole(ctx context.Context, phone string, role domain.Role) (domain.User, error) {
	if !role.Valid() {
		return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "unknown role %q", role)
	}
	// One statement, so two concurrent grants for a new phone cannot both insert.
	err := r.client.User.Create().
		SetPhone(phone).
		SetNickName(RandomNickName()).
		SetRole(user.Role(role)).
		OnConflictColumns(user.FieldPhone).
		Update(func(u *ent.UserUpsert) {
			u.SetRole(user.Role(role))
			u.UpdateUpdatedAt()
		}).
		Exec(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("set role of user: %w", translate(err, "user", "", ""))
	}
	return r.UserByPhone(ctx, phone)
}

// SetBlocked blocks or unblocks the user with that phone number and returns the user,
// or domain.ErrNotFound.
func (r *Users) SetBlocked(ctx context.Context, phone string, blocked bool) (domain.User, error) {
	n, err := r.client.User.Update().Where(user.Phone(phone)).SetBlocked(blocked).Save(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("set blocked: %w", translate(err, "user", "", ""))
	}
	if n == 0 {
		return domain.User{}, &domain.Error{Code: domain.CodeNotFound, Message: "user not found"}
	}
	return r.UserByPhone(ctx, phone)
}

// SetRoleByID gives user id the role and returns the user, or domain.ErrNotFound.
func (r *Users) SetRoleByID(ctx context.Context, id int64, role domain.Role) (domain.User, error) {
	if !role.Valid() {
		return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "unknown role %q", role)
	}
	n, err := r.client.User.Update().Where(user.ID(id)).SetRole(user.Role(role)).Save(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("set role of user: %w", translate(err, "user", "", ""))
	}
	if n == 0 {
		return domain.User{}, &domain.Error{Code: domain.CodeNotFound, Message: "user not found"}
	}
	return r.User(ctx, id)
}

// SetBlockedByID blocks or unblocks user id and returns the user, or domain.ErrNotFound.
func (r *Users) SetBlockedByID(ctx context.Context, id int64, blocked bool) (domain.User, error) {
	n, err := r.client.User.Update().Where(user.ID(id)).SetBlocked(blocked).Save(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("set blocked: %w", translate(err, "user", "", ""))
	}
	if n == 0 {
		return domain.User{}, &domain.Error{Code: domain.CodeNotFound, Message: "user not found"}
	}
	return r.User(ctx, id)
}

// DemoteMerchantWithoutShops makes user id a USER if they are a MERCHANT who owns no
// shop, in one transaction that locks the user's row (PostgreSQL: FOR UPDATE, which
// waits for a SetShopOwner holding it; SQLite: the database's write lock), and returns
// the user and whether they were demoted; domain.ErrNotFound for an unknown user.
func (r *Users) DemoteMerchantWithoutShops(ctx context.Context, id int64) (domain.User, bool, error) {
	var out domain.User
	var demoted bool
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.User.Query().Where(user.ID(id))
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "user")
		}
		out = toUser(row)
		if out.Role != domain.RoleMerchant {
			return nil
		}
		owns, err := tx.Shop.Query().Where(entshop.OwnerID(id)).Exist(ctx)
		if err != nil || owns {
			return err
		}
		row, err = tx.User.UpdateOneID(id).SetRole(user.RoleUSER).Save(ctx)
		if err != nil {
			return fmt.Errorf("set role of user %d: %w", id, err)
		}
		out, demoted = toUser(row), true
		return nil
	})
	if err != nil {
		return domain.User{}, false, fmt.Errorf("demote merchant %d: %w", id, err)
	}
	return out, demoted, nil
}

// Credentials returns the user with that phone number and their password hash ("" for
// none), or domain.ErrNotFound.
func (r *Users) Credentials(ctx context.Context, phone string) (domain.User, string, error) {
	row, err := r.client.User.Query().Where(user.Phone(phone)).Only(ctx)
	if err != nil {
		return domain.User{}, "", fmt.Errorf("load credentials: %w", notFound(err, "user"))
	}
	return toUser(row), row.PasswordHash, nil
}

// SetPasswordHash stores user id's password hash, or returns domain.ErrNotFound.
func (r *Users) SetPasswordHash(ctx context.Context, id int64, hash string) error {
	n, err := r.client.User.Update().Where(user.ID(id)).SetPasswordHash(hash).Save(ctx)
	if err != nil {
		return fmt.Errorf("set password hash: %w", translate(err, "user", "", ""))
	}
	if n == 0 {
		return &domain.Error{Code: domain.CodeNotFound, Message: "user not found"}
	}
	return nil
}

// RandomNickName returns "user_" and 10 random lowercase letters or digits, the
// nickname new accounts start with.
func RandomNickName() string {
	return "user_" + strings.ToLower(rand.Text()[:10])
}

func toUser(u *ent.User) domain.User {
	return domain.User{
		ID:          u.ID,
		Phone:       u.Phone,
		NickName:    u.NickName,
		Icon:        u.Icon,
		Role:        domain.Role(u.Role),
		Blocked:     u.Blocked,
		HasPassword: u.PasswordHash != "",
		CreatedAt:   u.CreatedAt,
		UpdatedAt:   u.UpdatedAt,
		Profile: domain.Profile{
			City: u.City, Introduction: u.Introduction, Gender: domain.Gender(u.Gender), Birthday: u.Birthday,
			Credits: u.Credits,
		},
	}
}
