package graph

import (
	"testing"

	"github.com/dealspot/dealspot/graph/generated"
)

// TestWaitlistSchemaContract: the waitlist's operations keep their names and arguments.
func TestWaitlistSchemaContract(t *testing.T) {
	s := generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema()
	for _, c := range []struct{ typ, field, arg string }{
		{"Mutation", "joinWaitlist", "voucherId"},
		{"Mutation", "leaveWaitlist", "voucherId"},
		{"Mutation", "acceptOffer", "voucherId"},
		{"Mutation", "declineOffer", "voucherId"},
		{"Query", "myWaitlist", ""},
	} {
		def := s.Types[c.typ]
		if def == nil || def.Fields.ForName(c.field) == nil {
			t.Errorf("%s.%s is missing", c.typ, c.field)
			continue
		}
		if c.arg != "" && def.Fields.ForName(c.field).Arguments.ForName(c.arg) == nil {
			t.Errorf("%s.%s has no argument %s", c.typ, c.field, c.arg)
		}
	}
	entry := s.Types["WaitlistEntry"]
	for _, f := range []string{"voucher", "position", "offer"} {
		if entry == nil || entry.Fields.ForName(f) == nil {
			t.Errorf("WaitlistEntry.%s is missing", f)
		}
	}
	if offer := s.Types["WaitlistOffer"]; offer == nil || offer.Fields.ForName("expiresAt") == nil {
		t.Error("WaitlistOffer.expiresAt is missing")
	}
}
