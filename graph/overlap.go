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

// linearOverlapRule checks that the fields sharing a response name can be merged: the
// same field with the same arguments and the same type, and, recursively, the same for
// what they select. Comparing each field with the first of its response name is then
// enough: the check is linear in the expanded operation. Without interfaces the fields of
// one selection set have one parent type, except under a union, whose members' fields
// may share a response name; the spec lets those differ (different fields of two member
// types, of the same shape), which this refuses — a client aliases them apart.
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
			c := overlapChecker{fragments: m.fragments, addError: addError, reported: map[string]bool{}}
			c.check(c.collect(nil, op.SelectionSet, map[string]bool{}))
		})
	}
}

// maxNodesPerField bounds the fragment spreads and inline fragments an operation may
// expand to, per field of its complexity budget.
const maxNodesPerField = 10

type overlapChecker struct {
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
// the merged selection of the fields sharing it.
func (c *overlapChecker) check(fields []*ast.Field) {
	type group struct {
		first *ast.Field
		sub   []*ast.Field
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
			g = &group{first: f}
			groups[key] = g
			order = append(order, key)
		} else {
			c.compare(key, g.first, f)
		}
		g.sub = c.collect(g.sub, f.SelectionSet, map[string]bool{})
	}
	for _, key := range order {
		if g := groups[key]; len(g.sub) > 0 {
			c.check(g.sub)
		}
	}
}

func (c *overlapChecker) compare(key string, a, b *ast.Field) {
	var reason string
	switch {
	case a.Name != b.Name:
		reason = fmt.Sprintf("%s and %s are different fields", a.Name, b.Name)
	case !sameArguments(a.Arguments, b.Arguments):
		reason = "they have differing arguments"
	case a.Definition != nil && b.Definition != nil && a.Definition.Type.String() != b.Definition.Type.String():
		// The same name on two members of a union (an unknown field has no definition:
		// another rule refuses it).
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
