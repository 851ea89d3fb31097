package contracttest

import "testing"

// Case is one case of a contract suite, run on a store of type S.
type Case[S any] struct {
	Name string
	Run  func(t *testing.T, s S)
}

// RunCases runs every case as a parallel subtest of t, each on the store newStore
// returns for it.
func RunCases[S any](t *testing.T, newStore func(t *testing.T) S, cases ...Case[S]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			c.Run(t, newStore(t))
		})
	}
}
