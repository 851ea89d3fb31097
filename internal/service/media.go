package service

import (
	"net/http"

	"github.com/dealspot/dealspot/adapters/media/localfs"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/server"
)

// newMedia builds image uploads on the local media store (MEDIA_DIR), limited per user
// in Redis, and returns the use case with the store's handler for server.MediaPath.
func newMedia(cfg config.Media, rc *redisadapter.Conn) (*media.Upload, http.Handler, error) {
	store, err := localfs.New(cfg.Dir, server.MediaPath)
	if err != nil {
		return nil, nil, &settingError{setting: "MEDIA_DIR", msg: err.Error(), err: err}
	}
	upload, err := media.New(media.Config{
		MaxBytes:     cfg.MaxBytes,
		MaxSide:      cfg.MaxSide,
		MaxPixels:    cfg.MaxPixels,
		DecodeBudget: cfg.DecodeBudget,
		RatePerUser:  cfg.RatePerUser.Max,
		RateWindow:   cfg.RatePerUser.Window,
	}, media.Deps{Store: store, Limiter: redisadapter.NewRateLimiter(rc.Client)})
	if err != nil {
		return nil, nil, err
	}
	return upload, store.Handler(), nil
}
