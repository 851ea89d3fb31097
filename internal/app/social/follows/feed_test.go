package follows

import (
	"slices"
	"testing"
)

func TestFeedCursorsCountEntriesSharingAScore(t *testing.T) {
	t.Parallel()
	e := func(id, score int64) FeedEntry { return FeedEntry{BlogID: id, Score: score} }
	cases := []struct {
		name    string
		after   *FeedCursor
		entries []FeedEntry
		want    []FeedCursor
	}{
		{"first page", nil,
			[]FeedEntry{e(9, 300), e(8, 200), e(7, 200), e(6, 100)},
			[]FeedCursor{{300, 1}, {200, 1}, {200, 2}, {100, 1}}},
		{"a run continues from the previous page", &FeedCursor{Max: 200, Offset: 2},
			[]FeedEntry{e(5, 200), e(4, 200), e(3, 150)},
			[]FeedCursor{{200, 3}, {200, 4}, {150, 1}}},
		{"a whole page of one score", &FeedCursor{Max: 200, Offset: 4},
			[]FeedEntry{e(2, 200), e(1, 200)},
			[]FeedCursor{{200, 5}, {200, 6}}},
		{"the previous page ended on another score", &FeedCursor{Max: 300, Offset: 1},
			[]FeedEntry{e(8, 200), e(7, 200)},
			[]FeedCursor{{200, 1}, {200, 2}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := feedCursors(tc.after, tc.entries); !slices.Equal(got, tc.want) {
				t.Fatalf("cursors %v, want %v", got, tc.want)
			}
		})
	}
}
