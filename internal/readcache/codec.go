package readcache

import "encoding/json"

// Codec turns values into the bytes stored in L2 and back. Marshal must never return
// empty output: an empty stored value is the null marker.
type Codec[V any] interface {
	Marshal(v V) ([]byte, error)
	Unmarshal(data []byte) (V, error)
}

// JSON is the default Codec: encoding/json.
type JSON[V any] struct{}

// Marshal implements Codec.
func (JSON[V]) Marshal(v V) ([]byte, error) { return json.Marshal(v) }

// Unmarshal implements Codec.
func (JSON[V]) Unmarshal(data []byte) (V, error) {
	var v V
	err := json.Unmarshal(data, &v)
	return v, err
}
