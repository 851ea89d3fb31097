package service

import (
	"github.com/dealspot/dealspot/adapters/media/localfs"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/server"
)

// startMedia builds image uploads on the local media store (MEDIA_DIR), limited per user
// in Redis, hands the use case to the application and keeps the store's handler for
// server.MediaPath.
func (s *Node) startMedia() error {
	cfg := s.Config.Media
	store, err := localfs.New(cfg.Dir, server.MediaPath)
	if err != nil {
		return &settingError{setting: "MEDIA_DIR", msg: err.Error(), err: err}
	}
	upload, err := media.New(media.Config{
		MaxBytes:     cfg.MaxBytes,
		MaxSide:      cfg.MaxSide,
		MaxPixels:    cfg.MaxPixels,
		DecodeBudget: cfg.DecodeBudget,
		RatePerUser:  cfg.RatePerUser.Max,
		RateWindow:   cfg.RatePerUser.Window,
	}, media.Deps{Store: store, Limiter: redisadapter.NewRateLimiter(s.Redis.Client)})
	if err != nil {
		return err
	}
	s.App.Commands.UploadImage = upload
	s.media = store.Handler()
	return nil
}
