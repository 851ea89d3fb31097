package domain

import (
	"math"
	"strings"
	"time"
)

// ShopType is a category of shops (food, KTV, hair …).
type ShopType struct {
	ID   int64
	Name string
	Icon string
	Sort int
}

// Shop is a place that sells deals.
type Shop struct {
	ID     int64
	Name   string
	TypeID int64
	// Images are the shop's photos: paths or URLs separated by commas.
	Images    string
	Area      string
	Address   string
	Longitude float64
	Latitude  float64
	// AvgPrice is the average spend per person, in cents.
	AvgPrice int64
	Sold     int
	Comments int
	// Score is the rating times ten (0–50), as stored.
	Score     int
	OpenHours string
	// OwnerID is the merchant who runs the shop (0: none).
	OwnerID   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ImageList returns the shop's photos, in order, without spaces or empty entries.
func (s Shop) ImageList() []string {
	out := []string{}
	for img := range strings.SplitSeq(s.Images, ",") {
		if img = strings.TrimSpace(img); img != "" {
			out = append(out, img)
		}
	}
	return out
}

// ShopFilter narrows a shop listing. (Shops are found by name through the search,
// ranked: internal/app/search.)
type ShopFilter struct {
	TypeID int64 // 0 = any type
}

// Page asks for up to First items strictly after the item with id After (0 = from the
// start), ordered by ascending id.
type Page struct {
	First int
	After int64
}

// ShopPosition is where a shop is, for the nearby index.
type ShopPosition struct {
	ShopID    int64
	TypeID    int64
	Longitude float64
	Latitude  float64
}

// Coordinate bounds: Redis GEO indexes latitudes only up to ±85.05112878°.
const (
	MaxLongitude = 180.0
	MaxLatitude  = 85.05112878
)

// ValidCoordinates reports whether lon/lat can be indexed.
func ValidCoordinates(lon, lat float64) bool {
	return lon >= -MaxLongitude && lon <= MaxLongitude && lat >= -MaxLatitude && lat <= MaxLatitude
}

// earthRadiusMeters is the mean Earth radius used for distances.
const earthRadiusMeters = 6371000.0

// MaxDistanceMeters bounds DistanceMeters: half the Earth's circumference.
const MaxDistanceMeters = math.Pi * earthRadiusMeters

// DistanceMeters is the great-circle (haversine) distance between two points.
func DistanceMeters(lon1, lat1, lon2, lat2 float64) float64 {
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusMeters * math.Asin(math.Min(1, math.Sqrt(a)))
}
