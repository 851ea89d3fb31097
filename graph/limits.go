package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"

	"github.com/dealspot/dealspot/internal/domain"
)

// Codes of operations refused by the operation limits.
const (
	CodeDepthLimit      = string(domain.CodeDepthLimitExceeded)
	CodeAliasLimit      = string(domain.CodeAliasLimitExceeded)
	CodeComplexityLimit = string(domain.CodeComplexityLimitExceeded)
)

// OperationLimits refuses operations nested deeper than MaxDepth, carrying more than
// MaxAliases aliased fields, or costing more than MaxComplexity (OWASP GraphQL Cheat
// Sheet: depth limiting, batching attacks through aliases, query cost analysis).
//
// A field costs 1 plus what it selects. A field with a `first` argument returns up to
// `first` items (PageSize when left out, at most MaxPageSize): a list field costs that
// many times itself, a connection that many times what it selects through its lists
// (edges). A list of objects without `first` (an edge such as a shop's vouchers) costs
// PageSize times what it selects. Every field costs at least 1, so the budget also bounds the number of fields
// the operation expands to.
//
// The measure is linear in the document: each fragment is measured once and its figures
// reused at every spread, so a nest of fragments that each spread the next twice costs
// no more to measure than to read.
type OperationLimits struct {
	MaxDepth      int
	MaxAliases    int
	MaxComplexity int
	// PageSize is the list size assumed when `first` is left out; MaxPageSize bounds the
	// size taken from `first` (larger values are refused by the resolvers themselves).
	PageSize    int
	MaxPageSize int
	// MaxStringChars bounds, in characters, every string argument and variable (0: no
	// bound); longer ones are BAD_USER_INPUT, as are those holding a NUL character.
	MaxStringChars int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = OperationLimits{}

// ExtensionName names the extension.
func (OperationLimits) ExtensionName() string { return "OperationLimits" }

// Validate accepts any schema.
func (OperationLimits) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext measures the operation before it runs.
func (l OperationLimits) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if opCtx.Operation == nil {
		return nil
	}
	if name, fault := badVariable(opCtx.Variables, l.MaxStringChars); fault != "" {
		return limitError(string(domain.CodeBadUserInput), "variable %s holds %s", name, fault)
	}
	m := newMeasurer(opCtx.Doc.Fragments, opCtx.Variables, l.PageSize, l.MaxPageSize)
	m.maxString = l.MaxStringChars
	m.directives(opCtx.Operation.Directives)
	c := m.set(opCtx.Operation.SelectionSet)
	switch {
	case m.badInput != nil:
		return m.badInput
	case c.depth > l.MaxDepth:
		return limitError(CodeDepthLimit, "operation is nested %d levels deep, more than the limit of %d", c.depth, l.MaxDepth)
	case c.aliases > int64(l.MaxAliases):
		return limitError(CodeAliasLimit, "operation has %s aliases, more than the limit of %d", count(c.aliases), l.MaxAliases)
	case c.total() > int64(l.MaxComplexity):
		return limitError(CodeComplexityLimit, "operation has complexity %s, more than the limit of %d", count(c.total()), l.MaxComplexity)
	}
	return nil
}

// badVariable reports the name of the first variable holding a string longer than max
// characters (0: any length) or holding a NUL character, anywhere in its lists and
// objects, and what is wrong with it.
func badVariable(vars map[string]any, max int) (name, fault string) {
	for name, v := range vars {
		if fault := stringsFault(v, max); fault != "" {
			return "$" + name, fault
		}
	}
	return "", ""
}

// stringsFault is stringFault over every string in v, its lists and its objects (whose
// keys are checked for NUL only): the first fault found, or "".
func stringsFault(v any, max int) string {
	switch x := v.(type) {
	case string:
		return stringFault(x, max)
	case []any:
		for _, e := range x {
			if f := stringsFault(e, max); f != "" {
				return f
			}
		}
	case map[string]any:
		for k, e := range x {
			if f := stringFault(k, 0); f != "" {
				return f
			}
			if f := stringsFault(e, max); f != "" {
				return f
			}
		}
	}
	return ""
}

// stringFault says what is wrong with s as a string input: longer than max characters
// (0: any length), or holding a NUL character, which no text column of PostgreSQL can
// store; "" when nothing is.
func stringFault(s string, max int) string {
	switch {
	case max > 0 && len(s) > max && utf8.RuneCountInString(s) > max:
		return fmt.Sprintf("a string longer than %d characters", max)
	case strings.IndexByte(s, 0) >= 0:
		return "a string with a NUL character"
	}
	return ""
}

func limitError(code, format string, args ...any) *gqlerror.Error {
	e := gqlerror.Errorf(format, args...)
	e.Extensions = map[string]any{"code": code}
	return e
}

// saturated is where the figures stop growing: far past any limit, far from overflow.
const saturated = int64(1) << 50

func add(a, b int64) int64 { return min(a+b, saturated) }

func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > saturated/b {
		return saturated
	}
	return min(a*b, saturated)
}

// count writes a figure, saying "more than" once it saturated.
func count(n int64) string {
	if n >= saturated {
		return "more than " + strconv.FormatInt(saturated, 10)
	}
	return strconv.FormatInt(n, 10)
}

// cost is what a selection set expands to.
type cost struct {
	// depth is how many levels of fields the set nests (1 for a set of leaves).
	depth int
	// aliases counts aliased fields; fields counts every field, as executed; nodes counts
	// fields, fragment spreads and inline fragments met on the way.
	aliases, fields, nodes int64
	// single is the complexity of the fields that are not lists; lists that of the list
	// fields, which a connection's page size multiplies.
	single, lists int64
}

func (c cost) total() int64 { return add(c.single, c.lists) }

func (c *cost) plus(o cost) {
	c.depth = max(c.depth, o.depth)
	c.aliases = add(c.aliases, o.aliases)
	c.fields = add(c.fields, o.fields)
	c.nodes = add(c.nodes, o.nodes)
	c.single = add(c.single, o.single)
	c.lists = add(c.lists, o.lists)
}

// measurer measures selection sets, remembering the cost of each fragment.
type measurer struct {
	fragments   map[string]*ast.FragmentDefinition
	vars        map[string]any
	pageSize    int64
	maxPageSize int64
	memo        map[string]cost
	// maxString bounds string literals in arguments (0: no bound); none may hold a NUL.
	maxString int
	// badInput is the first argument found unacceptable.
	badInput *gqlerror.Error
	// open holds the fragments being measured: a spread of one of them is a cycle, which
	// validation refuses; it counts nothing here.
	open map[string]bool
}

func newMeasurer(fragments ast.FragmentDefinitionList, vars map[string]any, pageSize, maxPageSize int) *measurer {
	byName := make(map[string]*ast.FragmentDefinition, len(fragments))
	for _, f := range fragments {
		if _, seen := byName[f.Name]; !seen {
			byName[f.Name] = f
		}
	}
	return &measurer{
		fragments: byName, vars: vars,
		pageSize: int64(max(pageSize, 1)), maxPageSize: int64(maxPageSize),
		memo: map[string]cost{}, open: map[string]bool{},
	}
}

func (m *measurer) set(set ast.SelectionSet) cost {
	var c cost
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			c.plus(m.field(s))
		case *ast.InlineFragment:
			m.directives(s.Directives)
			c.plus(m.set(s.SelectionSet))
			c.nodes = add(c.nodes, 1)
		case *ast.FragmentSpread:
			m.directives(s.Directives)
			c.plus(m.fragment(s.Name))
			c.nodes = add(c.nodes, 1)
		}
	}
	return c
}

func (m *measurer) fragment(name string) cost {
	if c, ok := m.memo[name]; ok {
		return c
	}
	f := m.fragments[name]
	if f == nil || m.open[name] {
		return cost{}
	}
	m.open[name] = true
	m.directives(f.Directives)
	c := m.set(f.SelectionSet)
	delete(m.open, name)
	m.memo[name] = c
	return c
}

func (m *measurer) field(f *ast.Field) cost {
	m.arguments(f.Arguments, f.Name)
	m.directives(f.Directives)
	child := m.set(f.SelectionSet)
	c := cost{depth: child.depth + 1, aliases: child.aliases, fields: add(child.fields, 1), nodes: add(child.nodes, 1)}
	if f.Alias != "" && f.Alias != f.Name {
		c.aliases = add(c.aliases, 1)
	}
	isList := f.Definition != nil && f.Definition.Type != nil && f.Definition.Type.Elem != nil
	complexity := add(1, child.total())
	if n, paged := m.pageOf(f); paged {
		if isList {
			complexity = mul(n, complexity)
		} else {
			// A connection: its lists (edges) repeat per item, the rest (pageInfo) once.
			complexity = add(add(1, child.single), mul(n, child.lists))
		}
	} else if isList && len(f.SelectionSet) > 0 && m.pageSize > 0 && isEdge(f) {
		// An edge to a list of objects without `first` (a shop's vouchers): counted as
		// a page of them, each with what it selects.
		complexity = add(1, mul(m.pageSize, child.total()))
	}
	if isList {
		c.lists = complexity
	} else {
		c.single = complexity
	}
	return c
}

// arguments checks the literals of the arguments of a field or a directive.
func (m *measurer) arguments(args ast.ArgumentList, of string) {
	if m.badInput != nil {
		return
	}
	for _, arg := range args {
		if fault := literalFault(arg.Value, m.maxString); fault != "" {
			m.badInput = limitError(string(domain.CodeBadUserInput), "argument %s of %s holds %s", arg.Name, of, fault)
			return
		}
	}
}

// directives checks the literals of the arguments of directives (@include(if: {})).
func (m *measurer) directives(list ast.DirectiveList) {
	for _, d := range list {
		m.arguments(d.Arguments, "@"+d.Name)
	}
}

// pageOf returns how many items a field with a `first` argument may return.
func (m *measurer) pageOf(f *ast.Field) (int64, bool) {
	if f.Definition == nil || f.Definition.Arguments.ForName("first") == nil {
		return 0, false
	}
	n := m.pageSize
	if arg := f.Arguments.ForName("first"); arg != nil && arg.Value != nil {
		if v, ok := intValue(arg.Value, m.vars); ok {
			n = v
			if v < 1 && m.badInput == nil {
				// 0 used to mean "the default page"; leave first out for that.
				m.badInput = limitError(string(domain.CodeBadUserInput), "first of %s must be at least 1", f.Name)
			}
		}
	}
	if m.maxPageSize > 0 {
		n = min(n, m.maxPageSize)
	}
	return max(n, 1), true
}

// literalFault says what is wrong with the first literal in v that is a string longer
// than max characters (0: any length) or holding a NUL character, or an object where a
// scalar or an enum is expected; "" when none is. gqlparser checks an object's fields
// against the type expected, so it let an empty object `{}` through for an ID, a String
// or an Int, whose coercion then failed as if the server had.
func literalFault(v *ast.Value, max int) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		return stringFault(v.Raw, max)
	case ast.ObjectValue:
		if d := v.Definition; d != nil && (d.Kind == ast.Scalar || d.Kind == ast.Enum) {
			return "an object where " + d.Name + " is expected"
		}
		fallthrough
	case ast.ListValue:
		for _, c := range v.Children {
			if f := literalFault(c.Value, max); f != "" {
				return f
			}
		}
	}
	return ""
}

// intValue reads an Int argument, a literal or a variable.
func intValue(v *ast.Value, vars map[string]any) (int64, bool) {
	if v.Kind == ast.Variable {
		switch x := vars[v.Raw].(type) {
		case int:
			return int64(x), true
		case int64:
			return x, true
		case int32:
			return int64(x), true
		case float64:
			if x >= math.MinInt64 && x <= math.MaxInt64 {
				return int64(x), true
			}
		case json.Number:
			n, err := x.Int64()
			return n, err == nil
		}
		return 0, false
	}
	if v.Kind != ast.IntValue {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Raw, 10, 64)
	return n, err == nil
}

// isEdge reports whether f leads from one object to others: not a root field (whose
// lists, such as shopTypes, are small and fixed), not a connection's edges (counted by
// the connection's `first`), not introspection (the schema's own, bounded lists) and not
// a list of values (valueTypes).
func isEdge(f *ast.Field) bool {
	if f.ObjectDefinition == nil || f.Definition == nil || f.Definition.Type == nil ||
		strings.HasPrefix(f.ObjectDefinition.Name, "__") {
		return false
	}
	switch f.ObjectDefinition.Name {
	case "Query", "Mutation", "Subscription":
		return false
	}
	name := f.Definition.Type.Name()
	return !strings.HasSuffix(name, "Edge") && !valueTypes[name]
}

// valueTypes are objects that are values of the object holding them, with leaves only:
// a list of them (a note's images, at most 9, or a shop's photos) counts its selection
// once, as the list of strings it was did — the images of a whole page are described
// with one look-up.
var valueTypes = map[string]bool{"Image": true}

// codeValidationFailed is the code of a document refused by FragmentLimits: it is
// invalid here, like one refused by a validation rule.
const codeValidationFailed = string(domain.CodeValidationFailed)

// FragmentLimits refuses, before gqlgen parses and validates it, a document holding more
// than MaxFragments fragment definitions, or whose fragment spreads would make
// validation walk more than MaxSpreadTokens tokens of fragments.
//
// gqlparser's validator walks every operation and every fragment definition on its own,
// entering each fragment it reaches once per walk: a chain of n fragments, each
// spreading the next, costs it about n²/2 fragments (1,800 of them, 64 KB, took
// 470 ms). The operation limits measure each fragment once, but they run after
// validation. So this counts, from the document's tokens and before anything else,
// what that walk would cost: for every operation and fragment definition, the tokens
// of each fragment it reaches. The count stops at the limit, so it is linear in the
// document too.
type FragmentLimits struct {
	MaxFragments    int
	MaxSpreadTokens int
	// MaxTokens is the parser's token limit; a longer document is left to the parser.
	MaxTokens int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = FragmentLimits{}

// ExtensionName names the extension.
func (FragmentLimits) ExtensionName() string { return "FragmentLimits" }

// Validate accepts any schema.
func (FragmentLimits) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses the document of p if its fragments are past a limit.
func (l FragmentLimits) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	// A document without spreads walks each definition once; one without the word
	// "fragment" defines none.
	if !strings.Contains(p.Query, "...") && !strings.Contains(p.Query, "fragment") {
		return nil
	}
	return l.check(p.Query)
}

func (l FragmentLimits) check(query string) *gqlerror.Error {
	defs, ok := scanDefinitions(query, l.MaxTokens)
	if !ok {
		return nil // the parser says what is wrong with it
	}
	fragments := 0
	for _, d := range defs {
		if d.fragment {
			fragments++
		}
	}
	if l.MaxFragments > 0 && fragments > l.MaxFragments {
		return limitError(codeValidationFailed, "document defines %d fragments, more than the limit of %d", fragments, l.MaxFragments)
	}
	if l.MaxSpreadTokens > 0 {
		if walked := spreadTokens(defs, l.MaxSpreadTokens); walked > l.MaxSpreadTokens {
			return limitError(codeValidationFailed,
				"document spreads its fragments into one another too often: validating it would read more than %d tokens of fragments", l.MaxSpreadTokens)
		}
	}
	return nil
}

// scannedDefinition is an operation or a fragment definition as read from its tokens.
type scannedDefinition struct {
	fragment bool
	name     string // a fragment's name
	tokens   int
	spreads  []string // the fragments it spreads, by name
}

// scanDefinitions splits a document into its definitions and the fragment spreads of
// each, from its tokens alone (no syntax tree). It reports false for a document the
// parser will refuse: more than maxTokens tokens, an unknown character, unbalanced
// braces or parentheses.
func scanDefinitions(query string, maxTokens int) ([]scannedDefinition, bool) {
	lx := lexer.New(&ast.Source{Input: query})
	var defs []scannedDefinition
	// depth counts the braces of selection sets, parens the parentheses of arguments and
	// variable definitions (braces inside them are object values); a definition ends
	// when its selection set closes.
	depth, parens := 0, 0
	ended, nameNext, spreadNext := true, false, false
	for n := 0; ; n++ {
		tok, err := lx.ReadToken()
		switch {
		case err != nil, maxTokens > 0 && n > maxTokens:
			return nil, false
		case tok.Kind == lexer.EOF:
			return defs, depth == 0 && parens == 0
		case tok.Kind == lexer.Comment:
			continue
		}
		if ended && depth == 0 && parens == 0 {
			defs = append(defs, scannedDefinition{fragment: tok.Kind == lexer.Name && tok.Value == "fragment"})
			ended, nameNext = false, defs[len(defs)-1].fragment
		} else if nameNext {
			defs[len(defs)-1].name, nameNext = tok.Value, false
		}
		d := &defs[len(defs)-1]
		d.tokens++
		switch tok.Kind {
		case lexer.ParenL:
			parens++
		case lexer.ParenR:
			parens--
		case lexer.BraceL:
			if parens == 0 {
				depth++
			}
		case lexer.BraceR:
			if parens == 0 {
				depth--
				ended = depth == 0
			}
		case lexer.Name:
			if spreadNext && tok.Value != "on" {
				d.spreads = append(d.spreads, tok.Value)
			}
		}
		if depth < 0 || parens < 0 {
			return nil, false
		}
		spreadNext = tok.Kind == lexer.Spread
	}
}

// spreadTokens returns how many tokens of fragments gqlparser's validator walks through
// fragment spreads: for each operation and each fragment definition, the tokens of
// every fragment it reaches (once per walk, as the validator does), counting no
// further than past limit. Every fragment counted costs the loop no more than its
// tokens, so the count is linear in the document and the limit.
func spreadTokens(defs []scannedDefinition, limit int) int {
	byName := make(map[string]int, len(defs))
	for i, d := range defs {
		if _, dup := byName[d.name]; d.fragment && !dup {
			byName[d.name] = i
		}
	}
	reachedBy := make([]int, len(defs)) // 1 + the walk that last reached each fragment
	var stack []int
	total := 0
	for root := range defs {
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			d := defs[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			for _, name := range d.spreads {
				f, ok := byName[name]
				if !ok || reachedBy[f] == root+1 {
					continue
				}
				reachedBy[f] = root + 1
				if total += defs[f].tokens; total > limit {
					return total
				}
				stack = append(stack, f)
			}
		}
	}
	return total
}
