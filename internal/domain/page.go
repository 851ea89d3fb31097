package domain

import "fmt"

// PageLimits bounds the page sizes clients may ask for.
type PageLimits struct {
	// Default is used when a client gives no page size.
	Default int
	// Max is the largest page a client may ask for.
	Max int
}

// Validate reports a configuration mistake.
func (l PageLimits) Validate() error {
	if l.Max <= 0 || l.Default <= 0 || l.Default > l.Max {
		return fmt.Errorf("bad page limits: default %d, max %d", l.Default, l.Max)
	}
	return nil
}

// Size resolves a client's requested page size: 0 means the default; negative or above
// the maximum is a BAD_USER_INPUT error.
func (l PageLimits) Size(first int) (int, error) {
	switch {
	case first == 0:
		return l.Default, nil
	case first < 0:
		return 0, Errorf(CodeBadUserInput, "first must not be negative")
	case first > l.Max:
		return 0, Errorf(CodeBadUserInput, "first must be at most %d", l.Max)
	}
	return first, nil
}
