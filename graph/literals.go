package graph

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// literalsInRangeRule refuses number literals that do not fit a 64-bit integer or a
// finite 64-bit float. gqlparser checks them for Int and Float, but passes any literal
// to a custom scalar (Date, Time, ID), and reading one out of range panicked.
var literalsInRangeRule = core.Rule{
	Name: "LiteralsInRange",
	RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnValue(func(_ *core.Walker, v *ast.Value) {
			if v.Definition != nil && v.Definition.BuiltIn && (v.Definition.Name == "Int" || v.Definition.Name == "Float") {
				return // ValuesOfCorrectType reports these.
			}
			var err error
			switch v.Kind {
			case ast.IntValue:
				_, err = strconv.ParseInt(v.Raw, 10, 64)
			case ast.FloatValue:
				_, err = strconv.ParseFloat(v.Raw, 64)
			default:
				return
			}
			if err != nil {
				addError(core.Message("Number %s is out of range.", truncate(v.Raw, 40)), core.At(v.Position))
			}
		})
	},
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
