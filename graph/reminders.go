package graph

import (
	"context"

	"github.com/vikstrous/dataloadgen"

	"github.com/dealspot/dealspot/internal/app"
)

// remindedLoader tells, per voucher, whether the caller asked to be reminded of its
// sale, with one read per batch (none for an anonymous caller).
func remindedLoader(a *app.Application, opts []dataloadgen.Option) *dataloadgen.Loader[int64, bool] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]bool, []error) {
		m, err := a.Queries.Reminders.Reminded(ctx, viewer(ctx).UserID, ids)
		if err != nil {
			return nil, []error{err}
		}
		out := make([]bool, len(ids))
		for i, id := range ids {
			out[i] = m[id]
		}
		return out, nil
	}, opts...)
}

// reminderCountLoader counts, per voucher, the users who asked to be reminded of its
// sale: nil for the vouchers the caller may not see the count of.
func reminderCountLoader(a *app.Application, opts []dataloadgen.Option) *dataloadgen.Loader[int64, *int] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]*int, []error) {
		m, err := a.Queries.Reminders.Counts(ctx, actor(viewer(ctx)), ids)
		if err != nil {
			return nil, []error{err}
		}
		out := make([]*int, len(ids))
		for i, id := range ids {
			if n, ok := m[id]; ok {
				out[i] = &n
			}
		}
		return out, nil
	}, opts...)
}

// setReminder asks for (or, with remind false, takes back) the caller's reminder of
// the sale and forgets what the operation's loaders read of it before, so the answer
// shows it as it is now.
func (r *Resolver) setReminder(ctx context.Context, rawID string, remind bool) (string, error) {
	id, err := parseID("voucherId", rawID)
	if err != nil {
		return "", err
	}
	p, err := principal(ctx)
	if err != nil {
		return "", err
	}
	if remind {
		err = r.App.Commands.Reminders.RemindMe(ctx, p.UserID, id)
	} else {
		err = r.App.Commands.Reminders.CancelReminder(ctx, p.UserID, id)
	}
	if err != nil {
		return "", err
	}
	l := r.load(ctx)
	l.vouchersReminded.Clear(id)
	l.reminderCounts.Clear(id)
	return formatID(id), nil
}
