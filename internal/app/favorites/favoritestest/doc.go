// Package favoritestest holds the contract of the favourites' store (favorites.Store):
// the suite every adapter runs, and the in-memory fake that passes it.
package favoritestest
