package domain

import "time"

// Image is an image as it is served: where to fetch it, its size in pixels as it is
// displayed, and its media type (image/jpeg, image/png, image/webp or image/gif). The
// size and type of an image this server does not read (an https URL of another site)
// are unknown: zero.
type Image struct {
	URL           string
	Width, Height int
	ContentType   string
}

// Upload is an image a user uploaded, as recorded for deciding who may delete it.
type Upload struct {
	ID     int64
	UserID int64
	Image
	CreatedAt time.Time
}
