package entstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/notification"
	"github.com/dealspot/dealspot/ent/notificationactor"
	"github.com/dealspot/dealspot/ent/notificationsetting"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// Notifications keeps the users' inboxes (table notifications), the users each grouped
// notification counts (notification_actors) and the users' settings
// (notification_settings).
type Notifications struct {
	client  *ent.Client
	dialect string
}

var _ inbox.Store = (*Notifications)(nil)

// NewNotifications returns the inbox repository of s. (A function rather than a method
// of Store, whose methods are at archcheck's cap.)
func NewNotifications(s *Store) *Notifications {
	return &Notifications{client: s.client, dialect: s.dialect}
}

// actorBatch bounds the actors one statement reads or inserts (bind parameters).
const actorBatch = 500

// Add implements inbox.Store. One transaction takes the user's turn (PostgreSQL: a
// transaction-scoped advisory lock keyed by the user id; SQLite: the database's write
// lock, taken at BEGIN IMMEDIATE), so the additions of one user — from any node — take
// turns: the group's unread notification and the user's next seq are read and written
// without a race. The group's row is read FOR UPDATE too, so a concurrent MarkRead
// either waits for the addition or is seen by it (the addition then starts a new
// notification).
func (r *Notifications) Add(ctx context.Context, a inbox.Addition) (domain.Notification, bool, error) {
	n, changed, err := r.add(ctx, a)
	if err != nil {
		return domain.Notification{}, false, fmt.Errorf("add notification of user %d: %w", a.UserID, err)
	}
	return n, changed, nil
}

func (r *Notifications) add(ctx context.Context, a inbox.Addition) (n domain.Notification, changed bool, err error) {
	err = WithTx(ctx, r.client, func(tx *ent.Tx) error {
		n, changed, err = r.addInTx(ctx, tx, a)
		return err
	})
	return n, changed, err
}

// addInTx is Add within tx, which the caller commits: the user's turn is held until
// then. A transaction adding for several users takes their turns in ascending order of
// user id, so that two such transactions never wait for each other.
func (r *Notifications) addInTx(ctx context.Context, tx *ent.Tx, a inbox.Addition) (n domain.Notification, changed bool, err error) {
	actors := uniqueIDs(a.Actors)
	at := a.At.UTC()
	err = func() error {
		q := tx.Notification.Query().Where(notification.UserID(a.UserID), notification.GroupKey(a.GroupKey), notification.ReadAtIsNil())
		if r.dialect == dialect.Postgres {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", a.UserID); err != nil {
				return fmt.Errorf("take the user's turn: %w", err)
			}
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			row, err = r.create(ctx, tx, a, actors, at)
			if err == nil {
				n, changed = toNotification(row), true
			}
			return err
		}
		if err != nil {
			return fmt.Errorf("read the group's notification: %w", err)
		}
		added, err := r.newActors(ctx, tx, row.ID, actors)
		if err != nil || len(added) == 0 {
			n = toNotification(row)
			return err
		}
		seq, err := nextSeq(ctx, tx, a.UserID)
		if err != nil {
			return err
		}
		upd := tx.Notification.UpdateOneID(row.ID).AddActorCount(len(added)).SetActorID(added[len(added)-1]).
			SetUpdatedAt(at).SetSeq(seq)
		if a.CommentID > 0 {
			upd.SetCommentID(a.CommentID)
		}
		if row, err = upd.Save(ctx); err != nil {
			return fmt.Errorf("count new actors: %w", err)
		}
		n, changed = toNotification(row), true
		return nil
	}()
	return n, changed, err
}

// create inserts a's notification, counting actors.
func (r *Notifications) create(ctx context.Context, tx *ent.Tx, a inbox.Addition, actors []int64, at time.Time) (*ent.Notification, error) {
	seq, err := nextSeq(ctx, tx, a.UserID)
	if err != nil {
		return nil, err
	}
	c := tx.Notification.Create().SetUserID(a.UserID).SetKind(string(a.Kind)).SetGroupKey(a.GroupKey).
		SetActorCount(len(actors)).SetBlogID(a.BlogID).SetCommentID(a.CommentID).SetOrderID(a.OrderID).SetVoucherID(a.VoucherID).
		SetSeq(seq).SetCreatedAt(at).SetUpdatedAt(at)
	if len(actors) > 0 {
		c.SetActorID(actors[len(actors)-1])
	}
	row, err := c.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("create notification: %w", err)
	}
	if err := insertActors(ctx, tx, row.ID, actors); err != nil {
		return nil, err
	}
	return row, nil
}

// newActors records those of actors the notification does not count yet and returns
// them, in order. The caller holds the notification's row.
func (r *Notifications) newActors(ctx context.Context, tx *ent.Tx, id int64, actors []int64) ([]int64, error) {
	if len(actors) == 0 {
		return nil, nil
	}
	counted := map[int64]bool{}
	for start := 0; start < len(actors); start += actorBatch {
		part := actors[start:min(start+actorBatch, len(actors))]
		ids, err := tx.NotificationActor.Query().
			Where(notificationactor.NotificationID(id), notificationactor.UserIDIn(part...)).
			Select(notificationactor.FieldUserID).Ints(ctx)
		if err != nil {
			return nil, fmt.Errorf("read the notification's actors: %w", err)
		}
		for _, u := range ids {
			counted[int64(u)] = true
		}
	}
	added := slices.DeleteFunc(slices.Clone(actors), func(u int64) bool { return counted[u] })
	return added, insertActors(ctx, tx, id, added)
}

func insertActors(ctx context.Context, tx *ent.Tx, id int64, actors []int64) error {
	for start := 0; start < len(actors); start += actorBatch {
		part := actors[start:min(start+actorBatch, len(actors))]
		creates := make([]*ent.NotificationActorCreate, len(part))
		for i, u := range part {
			creates[i] = tx.NotificationActor.Create().SetNotificationID(id).SetUserID(u)
		}
		if err := tx.NotificationActor.CreateBulk(creates...).Exec(ctx); err != nil {
			return fmt.Errorf("record the notification's actors: %w", err)
		}
	}
	return nil
}

// nextSeq is the user's next seq: one more than the highest.
func nextSeq(ctx context.Context, tx *ent.Tx, userID int64) (int64, error) {
	top, err := tx.Notification.Query().Where(notification.UserID(userID)).
		Order(ent.Desc(notification.FieldSeq)).Limit(1).Select(notification.FieldSeq).Ints(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the user's last seq: %w", err)
	}
	if len(top) == 0 {
		return 1, nil
	}
	return int64(top[0]) + 1, nil
}

// uniqueIDs returns ids without repeats, in the order of their first appearance.
func uniqueIDs(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func toNotification(row *ent.Notification) domain.Notification {
	return domain.Notification{
		ID: row.ID, UserID: row.UserID, Kind: domain.NotificationKind(row.Kind), GroupKey: row.GroupKey,
		ActorID: row.ActorID, ActorCount: row.ActorCount, BlogID: row.BlogID, CommentID: row.CommentID, OrderID: row.OrderID,
		VoucherID: row.VoucherID, Read: row.ReadAt != nil, Seq: row.Seq, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
	}
}

// Page implements inbox.Store.
func (r *Notifications) Page(ctx context.Context, userID int64, unreadOnly bool, before int64, limit int) ([]domain.Notification, error) {
	q := r.client.Notification.Query().Where(notification.UserID(userID))
	if unreadOnly {
		q.Where(notification.ReadAtIsNil())
	}
	if before > 0 {
		q.Where(notification.SeqLT(before))
	}
	rows, err := q.Order(ent.Desc(notification.FieldSeq)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list notifications of user %d: %w", userID, err)
	}
	out := make([]domain.Notification, len(rows))
	for i, row := range rows {
		out[i] = toNotification(row)
	}
	return out, nil
}

// Notification implements inbox.Store.
func (r *Notifications) Notification(ctx context.Context, userID, id int64) (domain.Notification, error) {
	row, err := r.client.Notification.Query().Where(notification.ID(id), notification.UserID(userID)).Only(ctx)
	if err != nil {
		return domain.Notification{}, fmt.Errorf("read notification %d: %w", id, notFound(err, "notification"))
	}
	return toNotification(row), nil
}

// UnreadCount implements inbox.Store.
func (r *Notifications) UnreadCount(ctx context.Context, userID int64) (int, error) {
	n, err := r.client.Notification.Query().Where(notification.UserID(userID), notification.ReadAtIsNil()).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count unread notifications of user %d: %w", userID, err)
	}
	return n, nil
}

// MarkRead implements inbox.Store.
func (r *Notifications) MarkRead(ctx context.Context, userID int64, upTo int64) (int, error) {
	u := r.client.Notification.Update().Where(notification.UserID(userID), notification.ReadAtIsNil())
	if upTo > 0 {
		u.Where(notification.SeqLTE(upTo))
	}
	n, err := u.SetReadAt(time.Now().UTC()).Save(ctx)
	if err != nil {
		return 0, fmt.Errorf("mark notifications of user %d read: %w", userID, err)
	}
	return n, nil
}

// pruneBatch bounds the notifications one Prune deletes; the writer prunes again long
// before a user has more than that many extra.
const pruneBatch = 1000

// Prune implements inbox.Store.
func (r *Notifications) Prune(ctx context.Context, userID int64, keep int) (int, error) {
	var n int
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		ids, err := tx.Notification.Query().Where(notification.UserID(userID)).
			Order(ent.Desc(notification.FieldSeq)).Offset(keep).Limit(pruneBatch).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.NotificationActor.Delete().Where(notificationactor.NotificationIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		n, err = tx.Notification.Delete().Where(notification.IDIn(ids...)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete the oldest notifications of user %d: %w", userID, err)
	}
	return n, nil
}

// Settings implements inbox.Store.
func (r *Notifications) Settings(ctx context.Context, userIDs []int64) (map[int64]domain.NotificationSettings, error) {
	out := make(map[int64]domain.NotificationSettings, len(userIDs))
	for start := 0; start < len(userIDs); start += actorBatch {
		part := userIDs[start:min(start+actorBatch, len(userIDs))]
		rows, err := r.client.NotificationSetting.Query().Where(notificationsetting.UserIDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("read notification settings: %w", err)
		}
		for _, row := range rows {
			out[row.UserID] = toSettings(row)
		}
	}
	for _, id := range userIDs {
		if _, ok := out[id]; !ok {
			out[id] = domain.DefaultNotificationSettings()
		}
	}
	return out, nil
}

func toSettings(row *ent.NotificationSetting) domain.NotificationSettings {
	return domain.NotificationSettings{Likes: row.Likes, Comments: row.Comments, Follows: row.Follows, Orders: row.Orders, FollowedNotes: row.FollowedNotes,
		ShopSales: row.ShopSales}
}

// UpdateSettings implements inbox.Store. The user's row is read for update; a user's
// first change inserts it, and of two first changes at once the second starts over
// and sees the first.
func (r *Notifications) UpdateSettings(ctx context.Context, userID int64, update func(*domain.NotificationSettings)) (domain.NotificationSettings, error) {
	var s domain.NotificationSettings
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		s, err = r.updateSettings(ctx, userID, update)
		if err == nil || !ent.IsConstraintError(err) {
			break
		}
	}
	if err != nil {
		return domain.NotificationSettings{}, fmt.Errorf("change notification settings of user %d: %w", userID, err)
	}
	return s, nil
}

func (r *Notifications) updateSettings(ctx context.Context, userID int64, update func(*domain.NotificationSettings)) (s domain.NotificationSettings, err error) {
	err = WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.NotificationSetting.Query().Where(notificationsetting.UserID(userID))
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		switch {
		case ent.IsNotFound(err):
			s = domain.DefaultNotificationSettings()
			update(&s)
			return tx.NotificationSetting.Create().SetUserID(userID).SetLikes(s.Likes).SetComments(s.Comments).
				SetFollows(s.Follows).SetOrders(s.Orders).SetFollowedNotes(s.FollowedNotes).SetShopSales(s.ShopSales).Exec(ctx)
		case err != nil:
			return err
		}
		s = toSettings(row)
		update(&s)
		return tx.NotificationSetting.UpdateOne(row).SetLikes(s.Likes).SetComments(s.Comments).
			SetFollows(s.Follows).SetOrders(s.Orders).SetFollowedNotes(s.FollowedNotes).SetShopSales(s.ShopSales).Exec(ctx)
	})
	return s, err
}
