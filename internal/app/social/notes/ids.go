package notes

// UniqueIDs returns ids without repeats, in first-seen order: what a batch look-up asks
// the store for.
func UniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
