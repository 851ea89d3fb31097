package model

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// dateLayout is how the Date scalar is written.
const dateLayout = "2006-01-02"

// Date is the Date scalar: a calendar day written YYYY-MM-DD, without a time zone.
type Date struct {
	// Day is midnight UTC of the day.
	Day time.Time
}

// UnmarshalGQL reads a Date; anything but a valid YYYY-MM-DD string is a BAD_USER_INPUT
// error.
func (d *Date) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return domain.Errorf(domain.CodeBadUserInput, "a Date is a string YYYY-MM-DD")
	}
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return domain.Errorf(domain.CodeBadUserInput, "%q is not a date YYYY-MM-DD", truncate(s, 64))
	}
	d.Day = t
	return nil
}

// MarshalGQL writes a Date as YYYY-MM-DD.
func (d Date) MarshalGQL(w io.Writer) {
	_, _ = fmt.Fprint(w, strconv.Quote(d.Day.Format(dateLayout)))
}
