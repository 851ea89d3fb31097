// Package graph is Dealspot's GraphQL layer: the schema (graph/schema), generated code
// (graph/generated), thin resolvers that parse input, call the app and map results.
package graph

import "github.com/dealspot/dealspot/internal/app"

// Resolver holds the application every resolver calls.
type Resolver struct {
	App *app.Application
}
