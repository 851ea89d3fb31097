package graph_test

import (
	"fmt"
	"strings"
)

// bodyLimit is HTTP_MAX_BODY_BYTES's default: no document is larger.
const bodyLimit = 64 << 10

// fill repeats unit(i) for i = 0, 1, … between head and tail for as long as the
// document stays within budget bytes (and at most max times, if max > 0).
func fill(head string, unit func(i int) string, tail string, budget, max int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; max <= 0 || i < max; i++ {
		u := unit(i)
		if b.Len()+len(u)+len(tail) > budget {
			break
		}
		b.WriteString(u)
	}
	b.WriteString(tail)
	return b.String()
}

// worstShapes are documents of at most 64 KB built to make one pre-execution step
// (parsing, a validation rule, the operation limits) as costly as its shape allows.
// Each is either answered or refused; none may cost more than a linear pass.
func worstShapes() map[string]string { return worstShapesOf(bodyLimit) }

// worstShapesOf builds worstShapes, those that grow within budget bytes each.
func worstShapesOf(budget int) map[string]string {
	s := map[string]string{}
	// A chain of fragments, each spreading the next: the validator walks every fragment
	// definition on its own, so n fragments cost it n²/2.
	s["chain"] = fill("query{...a0}\n", func(i int) string {
		return fmt.Sprintf("fragment a%d on Query{...a%d}\n", i, i+1)
	}, "fragment a1800 on Query{__typename}\n", budget, 1800) // 1,800 fit the token limit
	// The same within 100 fragments, the last one as large as the rest allows.
	chain100 := fill("query{...c0}\n", func(i int) string {
		return fmt.Sprintf("fragment c%d on Query{...c%d}\n", i, i+1)
	}, "", budget, 99)
	s["chain_100_into_a_large_fragment"] = fill(chain100+"fragment c99 on Query{", func(int) string { return " __typename" }, "}", budget, 0)
	// 99 fragments each spreading one large fragment.
	fanIn := fill("query{", func(i int) string { return fmt.Sprintf(" ...f%d", i) }, "}\n", budget, 99)
	for i := range 99 {
		fanIn += fmt.Sprintf("fragment f%d on Query{...big}\n", i)
	}
	s["fan_in_to_a_large_fragment"] = fill(fanIn+"fragment big on Query{", func(int) string { return " __typename" }, "}", budget, 0)
	// Every fragment spreads every later one.
	var all strings.Builder
	all.WriteString("query{...d0}\n")
	for i := range 100 {
		fmt.Fprintf(&all, "fragment d%d on Query{__typename", i)
		for j := i + 1; j < 100; j++ {
			fmt.Fprintf(&all, " ...d%d", j)
		}
		all.WriteString("}\n")
	}
	s["all_pairs_100"] = all.String()
	// One operation spreading 100 small fragments, and one spreading one fragment as
	// often as it fits.
	s["fan_out_100"] = fill("query{", func(i int) string { return fmt.Sprintf(" ...e%d", i) }, "}\n", budget, 100)
	for i := range 100 {
		s["fan_out_100"] += fmt.Sprintf("fragment e%d on Query{__typename}\n", i)
	}
	s["one_fragment_spread_often"] = fill("query{", func(int) string { return " ...g" }, "}\nfragment g on Query{__typename}", budget, 0)
	// Many operations, each spreading one large fragment.
	ops := fill("", func(i int) string { return fmt.Sprintf("query o%d{...h}\n", i) }, "", budget/2, 0)
	s["operations_spreading_a_large_fragment"] = fill(ops+"fragment h on Query{", func(int) string { return " __typename" }, "}", budget, 0)
	// Fragments spreading one another in cycles of two.
	s["fragment_cycles"] = fill("query{...k0}\n", func(i int) string {
		return fmt.Sprintf("fragment k%d on Query{...k%d} fragment k%d on Query{...k%d}\n", 2*i, 2*i+1, 2*i+1, 2*i)
	}, "", budget, 50)
	s["unknown_fragments"] = fill("query{", func(i int) string { return fmt.Sprintf(" ...x%d", i) }, "}", budget, 0)
	// Nesting: inline fragments and fields as deep as fits.
	s["nested_inline_fragments"] = "{" + strings.Repeat(strings.Repeat(" ... on Query {", 990)+" __typename"+strings.Repeat(" }", 990), 3) + " }"
	s["nested_fields"] = strings.Repeat("{shop(id:1)", 3000) + strings.Repeat("}", 3000)
	s["nested_lists"] = `{shop(id:` + strings.Repeat("[", 7000) + strings.Repeat("]", 7000) + `){id}}`
	s["nested_objects"] = `mutation{createBlog(input:` + strings.Repeat("{a:", 5000) + "1" + strings.Repeat("}", 5000) + `){id}}`
	// Fields sharing a response name, for OverlappingFieldsCanBeMerged.
	s["typename_repeated"] = fill("{", func(int) string { return " __typename" }, "}", budget, 0)
	s["conflicting_aliases"] = fill("{", func(i int) string { return fmt.Sprintf(` a:shop(id:"%d"){id}`, i) }, "}", budget, 0)
	s["same_field_in_fragments"] = fill("{shop(id:1){", func(int) string { return " ...on Shop{id name vouchers{id}}" }, "}}", budget, 0)
	// Variables, directives, aliases, arguments, input fields, strings.
	vars := fill("query(", func(i int) string { return fmt.Sprintf("$v%d:ID ", i) }, "){", budget/2, 0)
	n := strings.Count(vars, "$")
	s["many_variables"] = fill(vars, func(i int) string { return fmt.Sprintf(` a%d:shop(id:$v%d){id}`, i, n-1-i%n) }, "}", budget, 0)
	s["many_directives"] = fill("{__typename", func(int) string { return " @skip(if:false)" }, "}", budget, 0)
	s["many_directives_on_many_fields"] = fill("{", func(int) string { return " __typename@include(if:true)@skip(if:false)" }, "}", budget, 0)
	s["many_aliases"] = fill("{", func(i int) string { return fmt.Sprintf(" a%d:__typename", i) }, "}", budget, 0)
	s["many_arguments"] = fill("{shop(", func(int) string { return ` id:"1"` }, "){id}}", budget, 0)
	s["many_input_fields"] = fill(`mutation{createBlog(input:{`, func(int) string { return ` title:"t"` }, `}){id}}`, budget, 0)
	s["unknown_arguments"] = fill("{shop(id:1", func(i int) string { return fmt.Sprintf(" x%d:1", i) }, "){id}}", budget, 0)
	s["long_string"] = `{shops(name:"` + strings.Repeat("a", budget-100) + `"){pageInfo{hasNextPage}}}`
	s["many_strings"] = fill(`mutation{createBlog(input:{shopId:"1",title:"t",content:"c",images:[`, func(int) string { return `"a" ` }, `]}){id}}`, budget, 0)
	s["unknown_fields"] = fill("{", func(int) string { return " a" }, "}", budget, 0)
	s["unknown_types"] = fill("query(", func(i int) string { return fmt.Sprintf("$v%d:T%d ", i, i) }, "){__typename}", budget, 0)
	// The floor: a small query padded to 64 KB with a comment.
	s["baseline_comment"] = "{__typename}\n#" + strings.Repeat("x", budget-20)
	for name, d := range s {
		if len(d) > bodyLimit {
			panic(fmt.Sprintf("%s is %d bytes, more than the body limit", name, len(d)))
		}
	}
	return s
}
