package domain

import "time"

// Image is an uploaded image as it is stored and served: where to fetch it, its size in
// pixels as it is displayed, and its media type (image/jpeg, image/png, image/webp or
// image/gif).
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
