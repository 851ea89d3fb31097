package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Codes of operations refused by the shape limits.
const (
	CodeDepthLimit = "DEPTH_LIMIT_EXCEEDED"
	CodeAliasLimit = "ALIAS_LIMIT_EXCEEDED"
)

// ShapeLimit refuses operations nested deeper than MaxDepth or carrying more than
// MaxAliases aliased fields (OWASP GraphQL Cheat Sheet: depth limiting and batching
// attacks through aliases).
type ShapeLimit struct {
	MaxDepth   int
	MaxAliases int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = ShapeLimit{}

// ExtensionName names the extension.
func (ShapeLimit) ExtensionName() string { return "ShapeLimit" }

// Validate accepts any schema.
func (ShapeLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext measures the operation before it runs.
func (l ShapeLimit) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if opCtx.Operation == nil {
		return nil
	}
	m := measurer{fragments: opCtx.Doc.Fragments, maxDepth: l.MaxDepth}
	depth := m.depth(opCtx.Operation.SelectionSet, 1)
	if depth > l.MaxDepth {
		return limitError(CodeDepthLimit, "operation is nested %d levels deep, more than the limit of %d", depth, l.MaxDepth)
	}
	if m.aliases > l.MaxAliases {
		return limitError(CodeAliasLimit, "operation has %d aliases, more than the limit of %d", m.aliases, l.MaxAliases)
	}
	return nil
}

func limitError(code, format string, args ...any) *gqlerror.Error {
	e := gqlerror.Errorf(format, args...)
	e.Extensions = map[string]any{"code": code}
	return e
}

type measurer struct {
	fragments ast.FragmentDefinitionList
	maxDepth  int
	aliases   int
}

// depth returns how deep set goes when it starts at level, counting aliases on the way.
// It stops descending past the limit, so hostile fragment nests cost little.
func (m *measurer) depth(set ast.SelectionSet, level int) int {
	if level > m.maxDepth+1 {
		return level
	}
	deepest := level - 1
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				m.aliases++
			}
			d = level
			if len(s.SelectionSet) > 0 {
				d = m.depth(s.SelectionSet, level+1)
			}
		case *ast.InlineFragment:
			d = m.depth(s.SelectionSet, level)
		case *ast.FragmentSpread:
			if f := m.fragments.ForName(s.Name); f != nil {
				d = m.depth(f.SelectionSet, level)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}
