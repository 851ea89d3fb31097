package localfs_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/dealspot/dealspot/internal/app/media/mediatest"
)

// The store meets the media.Store contract, read back through its handler.
func TestStoreContract(t *testing.T) {
	t.Parallel()
	mediatest.StoreContract(t, func(t *testing.T) mediatest.Store {
		s, _ := newStore(t)
		return mediatest.Store{Store: s, Read: func(t *testing.T, url string) ([]byte, string, bool) {
			rec := get(s.Handler(), http.MethodGet, url)
			if rec.Code == http.StatusNotFound {
				return nil, "", false
			}
			body, err := io.ReadAll(rec.Body)
			if err != nil || rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d, %v", url, rec.Code, err)
			}
			return body, rec.Header().Get("Content-Type"), true
		}}
	})
}
