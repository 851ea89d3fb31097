package graph

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// overlapRuleName is the name of the validation rule our linear rule replaces.
const overlapRuleName = "OverlappingFieldsCanBeMerged"

// maxValidationErrors bounds the errors one document gets: a document of thousands of
// unknown fields would otherwise cost thousands of errors to build, present and send.
const maxValidationErrors = 20

// validationRules returns gqlparser's rules for one validation:
//   - OverlappingFieldsCanBeMerged is replaced by linearOverlapRule when the schema has no
//     interfaces (the stock rule compares every pair of fields that share a response
//     name: 5,900 `__typename` took seconds);
//   - literalsInRangeRule refuses numbers that fit no Go number;
//   - every rule reports through one counter, and the document's errors stop after
//     maxValidationErrors.
//   - without suggestions, the rules that make them (fields, arguments, types, enum
//     values, input fields) are swapped for their plain variants, and any "Did you
//     mean" left is cut off, so that validation errors say nothing of the schema's
//     other names;
//   - without introspection, __schema and __type are refused as invalid;
//
// The executor swaps FieldsOnCorrectType and ScalarLeafs by name after this runs; the
// set returned already holds the variant it would add, which it then keeps.
func validationRules(schema *ast.Schema, o ruleOptions) func() *rules.Rules {
	linear := !hasInterfaces(schema)
	return func() *rules.Rules {
		stock := rules.NewDefaultRules()
		stock.AddRule(literalsInRangeRule.Name, literalsInRangeRule.RuleFunc)
		if linear {
			stock.ReplaceRule(overlapRuleName, linearOverlapRule(o.maxFields))
		}
		if !o.suggestions {
			for _, r := range [...]struct{ with, without core.Rule }{
				{rules.FieldsOnCorrectTypeRule, rules.FieldsOnCorrectTypeRuleWithoutSuggestions},
				{rules.ScalarLeafsRule, rules.ScalarLeafsRuleWithoutSuggestions},
				{rules.KnownArgumentNamesRule, rules.KnownArgumentNamesRuleWithoutSuggestions},
				{rules.KnownTypeNamesRule, rules.KnownTypeNamesRuleWithoutSuggestions},
				{rules.ValuesOfCorrectTypeRule, rules.ValuesOfCorrectTypeRuleWithoutSuggestions},
			} {
				stock.RemoveRule(r.with.Name)
				stock.AddRule(r.without.Name, r.without.RuleFunc)
			}
		}
		if !o.introspection {
			stock.AddRule(noIntrospectionRule.Name, noIntrospectionRule.RuleFunc)
		}
		capped := rules.NewRules()
		errs := 0
		for name, rule := range stock.GetInner() {
			capped.AddRule(name, func(observers *core.Events, addError core.AddErrFunc) {
				rule(observers, func(options ...core.ErrorOption) {
					errs++
					if !o.suggestions {
						// Whatever rule a later gqlparser adds that suggests names.
						options = append(options, withoutSuggestion)
					}
					switch {
					case errs < maxValidationErrors:
						addError(options...)
					case errs == maxValidationErrors:
						addError(core.Message("too many validation errors; the first %d are shown", maxValidationErrors-1))
					}
				})
			})
		}
		return capped
	}
}

// withoutSuggestion cuts a "Did you mean …?" off an error's message.
func withoutSuggestion(err *gqlerror.Error) {
	if i := strings.Index(err.Message, " Did you mean "); i >= 0 {
		err.Message = err.Message[:i]
	}
}

// ruleOptions shape the validation rules.
type ruleOptions struct {
	// maxFields is the expanded size past which linearOverlapRule leaves an operation to
	// the complexity limit.
	maxFields                  int
	suggestions, introspection bool
}

// noIntrospectionRule refuses the introspection fields, for servers that do not offer
// introspection (gqlgen would otherwise answer them with an uncoded error).
var noIntrospectionRule = core.Rule{
	Name: "NoIntrospection",
	RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnField(func(_ *core.Walker, f *ast.Field) {
			if f.Name == "__schema" || f.Name == "__type" {
				addError(core.Message("Introspection is disabled on this server."), core.At(f.Position))
			}
		})
	},
}

func hasInterfaces(schema *ast.Schema) bool {
	for _, t := range schema.Types {
		if t.Kind == ast.Interface && !t.BuiltIn {
			return true
		}
	}
	return false
}

// linearOverlapRule checks that the fields sharing a response name can be merged, as the
// spec's OverlappingFieldsCanBeMerged does: fields of one parent type must be the same
// field with the same arguments; fields whose parents are two different object types
// (the members of a union: they never both apply) may differ in name and arguments but
// must have the same shape (the same list and non-null wrappers, the same scalar or
// enum at the leaves); and, recursively, the same holds for what they select, where
// below two exclusive parents only the shape counts. Comparing each field with the first
// of its response name, and with the first of its response name and parent type, is
// then enough, since both relations are equivalences: the check stays linear in the
// expanded operation (a field is compared again at most once per level above it).
//
// The expanded operation is measured first (each fragment once). One that expands to
// more than maxFields fields is left unchecked here, because the complexity limit, which
// counts at least 1 per field, refuses it before it runs; one whose fields hide behind
// more than maxNodesPerField fragment spreads and inline fragments each is refused.
func linearOverlapRule(maxFields int) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnOperation(func(walker *core.Walker, op *ast.OperationDefinition) {
			m := newMeasurer(walker.Document.Fragments, nil, 1, 1)
			size := m.set(op.SelectionSet)
			switch {
			case size.fields > int64(maxFields):
				return // the complexity limit refuses it
			case size.nodes > maxNodesPerField*int64(maxFields):
				// Few fields behind long chains of fragments: too costly to expand.
				addError(core.Message("Operation expands to %s fragments and fields, more than the limit of %d.",
					count(size.nodes), maxNodesPerField*maxFields), core.At(op.Position))
				return
			}
			c := overlapChecker{schema: walker.Schema, fragments: m.fragments, addError: addError, reported: map[string]bool{}}
			c.check(c.collect(nil, op.SelectionSet, map[string]bool{}), false)
		})
	}
}

// maxNodesPerField bounds the fragment spreads and inline fragments an operation may
// expand to, per field of its complexity budget.
const maxNodesPerField = 10

type overlapChecker struct {
	schema    *ast.Schema
	fragments map[string]*ast.FragmentDefinition
	addError  core.AddErrFunc
	reported  map[string]bool
}

// collect appends the fields of set, entering inline fragments and fragment spreads.
// inPath holds the fragments being entered (a cycle is refused by another rule).
func (c *overlapChecker) collect(fields []*ast.Field, set ast.SelectionSet, inPath map[string]bool) []*ast.Field {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			fields = append(fields, s)
		case *ast.InlineFragment:
			fields = c.collect(fields, s.SelectionSet, inPath)
		case *ast.FragmentSpread:
			f := c.fragments[s.Name]
			if f == nil || inPath[s.Name] {
				continue
			}
			inPath[s.Name] = true
			fields = c.collect(fields, f.SelectionSet, inPath)
			delete(inPath, s.Name)
		}
	}
	return fields
}

// check compares the fields of one merged selection set and then, per response name,
// the merged selection of the fields sharing it. exclusive says the fields' parents
// never apply together, so only their shapes must agree.
func (c *overlapChecker) check(fields []*ast.Field, exclusive bool) {
	type group struct {
		first *ast.Field
		// byParent holds, per parent type, its first field and the merged selection of
		// the fields of that parent; sub is the merged selection of every field.
		byParent map[string]*group
		parents  []string
		sub      []*ast.Field
	}
	var order []string
	groups := map[string]*group{}
	for _, f := range fields {
		key := f.Alias
		if key == "" {
			key = f.Name
		}
		g := groups[key]
		if g == nil {
			g = &group{first: f, byParent: map[string]*group{}}
			groups[key] = g
			order = append(order, key)
		} else {
			c.compare(key, g.first, f, exclusive || parentOf(g.first) != parentOf(f))
		}
		g.sub = c.collect(g.sub, f.SelectionSet, map[string]bool{})
		if exclusive {
			continue
		}
		p := parentOf(f)
		pg := g.byParent[p]
		if pg == nil {
			pg = &group{first: f}
			g.byParent[p] = pg
			g.parents = append(g.parents, p)
		} else if pg.first != g.first {
			c.compare(key, pg.first, f, false)
		}
		pg.sub = c.collect(pg.sub, f.SelectionSet, map[string]bool{})
	}
	for _, key := range order {
		g := groups[key]
		if exclusive || len(g.parents) == 1 {
			if len(g.sub) > 0 {
				c.check(g.sub, exclusive)
			}
			continue
		}
		// Fields of one response name on several member types: within a type they must
		// merge as usual; across types only their shapes must agree.
		for _, p := range g.parents {
			if sub := g.byParent[p].sub; len(sub) > 0 {
				c.check(sub, false)
			}
		}
		if len(g.sub) > 0 {
			c.check(g.sub, true)
		}
	}
}

// parentOf names the type a field is selected on.
func parentOf(f *ast.Field) string {
	if f.ObjectDefinition == nil {
		return ""
	}
	return f.ObjectDefinition.Name
}

func (c *overlapChecker) compare(key string, a, b *ast.Field, exclusive bool) {
	var reason string
	switch {
	case !exclusive && a.Name != b.Name:
		reason = fmt.Sprintf("%s and %s are different fields", a.Name, b.Name)
	case !exclusive && !sameArguments(a.Arguments, b.Arguments):
		reason = "they have differing arguments"
	case a.Definition != nil && b.Definition != nil && !c.sameShape(a.Definition.Type, b.Definition.Type, exclusive):
		// An unknown field has no definition: another rule refuses it.
		reason = fmt.Sprintf("they return differing types %s and %s", a.Definition.Type, b.Definition.Type)
	default:
		return
	}
	// One message per pair of positions, however often fragments repeat them.
	at := fmt.Sprintf("%s@%v@%v", key, position(a), position(b))
	if c.reported[at] {
		return
	}
	c.reported[at] = true
	c.addError(
		core.Message(`Fields "%s" conflict because %s. Use different aliases on the fields to fetch both if this was intentional.`, key, reason),
		core.At(b.Position),
	)
}

// sameShape reports whether two field types answer alike: the same wrappers and, at the
// leaves, the same scalar or enum. Unless exclusive, they must be the same type.
func (c *overlapChecker) sameShape(a, b *ast.Type, exclusive bool) bool {
	if !exclusive {
		return a.String() == b.String()
	}
	for {
		if a.NonNull != b.NonNull || (a.Elem == nil) != (b.Elem == nil) {
			return false
		}
		if a.Elem == nil {
			break
		}
		a, b = a.Elem, b.Elem
	}
	if a.NamedType == b.NamedType {
		return true
	}
	return !c.leaf(a.NamedType) && !c.leaf(b.NamedType)
}

// leaf reports whether the named type is a scalar or an enum (unknown: treated as one).
func (c *overlapChecker) leaf(name string) bool {
	if c.schema == nil {
		return true
	}
	t := c.schema.Types[name]
	return t == nil || t.Kind == ast.Scalar || t.Kind == ast.Enum
}

func position(f *ast.Field) any {
	if f.Position == nil {
		return nil
	}
	return *f.Position
}

func sameArguments(a, b ast.ArgumentList) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		y := b.ForName(x.Name)
		if y == nil || x.Value.String() != y.Value.String() {
			return false
		}
	}
	return true
}
