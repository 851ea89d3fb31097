// Package ent holds Dealspot's relational schema (ent/schema) and the code ent generates
// from it. Regenerate with `go generate ./ent`; never edit the generated files.
package ent

//go:generate go run -mod=mod entc.go
