// Package model holds the GraphQL types. models_gen.go is generated; hand-written types
// (those gqlgen should bind to rather than generate) live here.
package model
