package domain

import "time"

// ShopType is a category of shops (food, KTV, hair …).
type ShopType struct {
	ID   int64
	Name string
	Icon string
	Sort int
}

// Shop is a place that sells deals.
type Shop struct {
	ID        int64
	Name      string
	TypeID    int64
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
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ShopFilter narrows a shop listing.
type ShopFilter struct {
	TypeID int64 // 0 = any type
	Name   string
}

// Page asks for up to First items strictly after the item with id After (0 = from the
// start), ordered by ascending id.
type Page struct {
	First int
	After int64
}
