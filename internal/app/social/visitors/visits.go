package visitors

import (
	"context"
	"strconv"
	"time"
)

// Visits counts views of shops and blogs as today's visitors, site-wide and per shop.
// It implements shop.ViewCounter.
type Visits struct {
	buffer *visitBuffer
	now    func() time.Time
	loc    *time.Location
}

// CountView counts a view by a user (userID > 0), or else by an anonymous client at
// clientIP, as one of today's visitors site-wide and, when shopID > 0, of that shop. A
// view by nobody known (no user, no address) is not counted. Visits are buffered and
// written in batches (every VisitFlush), so reads that count them wait for no Redis
// round trip; counting never fails a read.
func (v *Visits) CountView(_ context.Context, userID int64, clientIP string, shopID int64) {
	visitor := visitorID(userID, clientIP)
	if visitor == "" || shopID < 0 {
		return
	}
	v.buffer.add(v.now().In(v.loc), shopID, visitor)
}

// visitorID is who a view is counted as: the user when logged in ("u:<id>"), else the
// client's address ("ip:<address>"); "" when neither is known.
func visitorID(userID int64, clientIP string) string {
	switch {
	case userID > 0:
		return "u:" + strconv.FormatInt(userID, 10)
	case clientIP != "":
		return "ip:" + clientIP
	}
	return ""
}

// FlushVisits writes the buffered visits now.
func (v *Visits) FlushVisits(ctx context.Context) error {
	return v.buffer.flush(ctx)
}

// Close stops the background writer, after one last attempt at pending writes.
func (v *Visits) Close() {
	v.buffer.stop()
}
