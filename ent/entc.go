//go:build ignore

// entc.go runs ent's code generator with the features Dealspot relies on:
// ON CONFLICT upserts, raw queries on the client and row locks (SELECT … FOR UPDATE).
package main

import (
	"log"

	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	err := entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeatureUpsert,
			gen.FeatureExecQuery,
			gen.FeatureLock,
		},
	})
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}
