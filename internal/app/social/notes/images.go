package notes

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// ValidImage reports whether img may be shown as a blog image: an absolute https URL
// with a host and no credentials, or a plain path on our own site — an uploaded image
// (/media/…) or a seeded one (/imgs/…). Anything else — plain http, other schemes such
// as javascript: or data:, markup, quotes, backslashes, control characters — is refused,
// because clients put these strings into src attributes.
func ValidImage(img string) bool {
	if strings.ContainsAny(img, "<>\"'`\\{}|^") || strings.ContainsFunc(img, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return false
	}
	if strings.HasPrefix(img, "/") {
		// Under one of our own folders; no dot segments, no query or escapes.
		own := strings.HasPrefix(img, "/media/") || strings.HasPrefix(img, "/imgs/")
		return own && !strings.Contains(img, "//") && !strings.Contains(img, "/./") && !strings.Contains(img, "/../") &&
			!strings.HasSuffix(img, "/.") && !strings.HasSuffix(img, "/..") && !strings.ContainsAny(img, ":?#%")
	}
	u, err := url.Parse(img)
	if err != nil || u.Scheme != "https" || u.Opaque != "" || u.User != nil || u.Host == "" {
		return false
	}
	// The scheme must be written in lower case as it is checked: no "JavaScript:" games.
	return strings.HasPrefix(img, "https://")
}

// CheckImagesExist returns BAD_USER_INPUT naming the first of refs that is a path of this
// site (refs passed ValidImage) where it serves no image. URLs of other sites are not
// checked: fetching them would let anyone make the server call any address, and what
// they serve can change at any time. With images nil, nothing is checked.
func CheckImagesExist(ctx context.Context, images Images, field string, refs []string) error {
	if images == nil {
		return nil
	}
	for _, ref := range refs {
		if !strings.HasPrefix(ref, "/") {
			continue
		}
		ok, err := images.Exists(ctx, ref)
		if err != nil {
			return fmt.Errorf("check %s: %w", field, err)
		}
		if !ok {
			return domain.Errorf(domain.CodeBadUserInput, "%s: there is no image at %s (upload it first)", field, ref)
		}
	}
	return nil
}
