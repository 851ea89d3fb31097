package service

import (
	"net/http"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/media/demopics"
	"github.com/dealspot/dealspot/adapters/media/localfs"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/server"
)

// mediaParts are the image use cases and what serves the images.
type mediaParts struct {
	upload *media.Upload
	images *media.Images
	// handler serves the uploads at server.MediaPath; demo the demo data's pictures.
	handler http.Handler
	demo    *demopics.Pictures
}

// newMedia builds image uploads on the local media store (MEDIA_DIR), limited per user
// in Redis and recorded in the database, and the look-up and deletion of images, which
// also know the demo data's pictures.
func newMedia(cfg config.Media, rc *redisadapter.Conn, store *entstore.Store) (mediaParts, error) {
	files, err := localfs.New(cfg.Dir, server.MediaPath)
	if err != nil {
		return mediaParts{}, &settingError{setting: "MEDIA_DIR", msg: err.Error(), err: err}
	}
	demo, err := demopics.New(entstore.DemoImagePaths())
	if err != nil {
		return mediaParts{}, err
	}
	uploads := entstore.NewUploads(store)
	upload, err := media.New(media.Config{
		MaxBytes:     cfg.MaxBytes,
		MaxSide:      cfg.MaxSide,
		MaxPixels:    cfg.MaxPixels,
		DecodeBudget: cfg.DecodeBudget,
		RatePerUser:  cfg.RatePerUser.Max,
		RateWindow:   cfg.RatePerUser.Window,
	}, media.Deps{Store: files, Uploads: uploads, Limiter: redisadapter.NewRateLimiter(rc.Client)})
	if err != nil {
		return mediaParts{}, err
	}
	images, err := media.NewImages(media.ImagesDeps{Store: files, Uploads: uploads, Shipped: demo})
	if err != nil {
		return mediaParts{}, err
	}
	return mediaParts{upload: upload, images: images, handler: files.Handler(), demo: demo}, nil
}
