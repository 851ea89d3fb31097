package app

import "github.com/dealspot/dealspot/internal/app/media"

// MediaCommands are the uploads a client may make.
type MediaCommands struct {
	// UploadImage stores an image a logged-in user uploads and says where it is served.
	UploadImage *media.Upload
	// DeleteImage deletes an upload nothing shows, for its uploader.
	DeleteImage *media.Images
}

// MediaQueries read images.
type MediaQueries struct {
	// Images tells the sizes and types of the images notes and shops show.
	Images *media.Images
}
