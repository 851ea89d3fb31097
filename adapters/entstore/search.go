package entstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/internal/app/search"
)

// Search finds shops, notes and users by their text (search.Index), with the database's
// own text search over the indexes the search_indexes migration made: on PostgreSQL
// pg_trgm's trigram GIN indexes (ILIKE for the terms, word similarity for typos and
// relevance), on SQLite the FTS5 trigram tables (MATCH for terms of three characters or
// more, LIKE for shorter ones, bm25 for relevance).
type Search struct {
	db      *sql.DB
	raw     *rawSQL
	dialect string
	shops   *Shops
	blogs   *Blogs
	users   *Users
}

var _ search.Index = (*Search)(nil)

// NewSearch returns the search index of s. (A function rather than a method of Store,
// whose methods are at archcheck's cap.)
func NewSearch(s *Store) *Search {
	return &Search{db: s.db, raw: s.raw(), dialect: s.dialect, shops: s.Shops(), blogs: s.Blogs(), users: s.Users()}
}

// How alike a name must be to a query for a typo to be forgiven.
const (
	// postgresTypoSimilarity is pg_trgm's word similarity (shared trigrams over the
	// trigrams of the query and of the name's best-matching stretch). One wrong character
	// in the middle of a four-character name leaves 0.25; unrelated names of a few
	// characters stay below 0.2.
	postgresTypoSimilarity = 0.2
	// sqliteTypoShare is the share of the query's character pairs (its first and last
	// character paired with the start and the end of a word of the name) found in the
	// name: one wrong character in a name of four characters or more leaves at least
	// half.
	sqliteTypoShare = 0.5
)

// postgresSearchPageCost is the random_page_cost a search is planned with, in its own
// transaction. With the default of 4 (disks that seek) the planner takes a trigram index
// for dearer than it is and reads the whole table instead: 4 to 5 times slower for a
// word a few percent of the notes hold (docs/performance.md, Search). Search's tables
// are read from memory or SSDs, where 1.1 is the usual setting. The same transaction
// turns parallel plans off: searches come many at once, and a note search that scans
// the table in three processes costs more CPU than in one (a third fewer searches a
// second on two cores under a flood).
const postgresSearchPageCost = 1.1

// searchable is where a kind of document lives and which of its columns are searched.
type searchable struct {
	table string
	// fts is SQLite's FTS5 table over the columns.
	fts string
	// name is the column a typo is forgiven in and whose match ranks highest; others
	// are the other searched columns.
	name   string
	others []string
	// weights are the columns' weights in SQLite's bm25, name first.
	weights []float64
}

var searchables = map[search.Kind]searchable{
	search.KindShop: {table: "shops", fts: "shops_search", name: "name", others: []string{"area", "address"}, weights: []float64{3, 1, 1}},
	search.KindNote: {table: "blogs", fts: "blogs_search", name: "title", others: []string{"content"}, weights: []float64{2, 1}},
	search.KindUser: {table: "users", fts: "users_search", name: "nick_name", weights: []float64{1}},
}

// columns are the columns q searches, name first.
func (s searchable) columns(q search.Query) []string {
	if q.NamesOnly {
		return []string{s.name}
	}
	return append([]string{s.name}, s.others...)
}

// ranked is one row of the ranked list, before its document is loaded.
type ranked struct {
	id    int64
	score float64
}

// Search implements search.Index: the ranked ids in one statement (on PostgreSQL in a
// read-only transaction that sets the word-similarity threshold and the planner's
// settings for it), then their documents by id. A search that forgives typos looks for
// names like the query only when nothing matches it exactly: on the first page when the
// exact search finds nothing, on the later ones when the page before ended at the typo
// tier, which only such a search reaches.
func (r *Search) Search(ctx context.Context, q search.Query) ([]search.Hit, error) {
	spec, ok := searchables[q.Kind]
	if !ok || len(q.Terms) == 0 || q.Limit <= 0 {
		return nil, nil
	}
	rank := r.rankSQLite
	if r.dialect == dialect.Postgres {
		rank = r.rankPostgres
	}
	var (
		rows []ranked
		err  error
	)
	switch {
	case q.Typos && q.After != nil && math.Floor(q.After.Score) == search.TierTypo:
		rows, err = rank(ctx, spec, q, true)
	case q.Typos && q.After == nil:
		if rows, err = rank(ctx, spec, q, false); err == nil && len(rows) == 0 {
			rows, err = rank(ctx, spec, q, true)
		}
	default:
		rows, err = rank(ctx, spec, q, false)
	}
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", spec.table, err)
	}
	return r.load(ctx, q.Kind, rows)
}

// load reads the documents of rows and returns them as hits, in the order of rows. A
// document deleted in between is left out.
func (r *Search) load(ctx context.Context, kind search.Kind, rows []ranked) ([]search.Hit, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	score := make(map[int64]float64, len(rows))
	for i, row := range rows {
		ids[i], score[row.id] = row.id, row.score
	}
	hit := func(id int64) search.Hit { return search.Hit{Position: search.Position{Score: score[id], ID: id}} }
	var hits []search.Hit
	switch kind {
	case search.KindShop:
		shops, err := r.shops.ShopsByIDs(ctx, ids)
		for _, s := range shops {
			h := hit(s.ID)
			h.Shop = s
			hits = append(hits, h)
		}
		return hits, err
	case search.KindNote:
		blogs, err := r.blogs.BlogsByIDs(ctx, ids)
		for _, b := range blogs {
			h := hit(b.ID)
			h.Note = b
			hits = append(hits, h)
		}
		return hits, err
	default:
		users, err := r.users.UsersByIDs(ctx, ids)
		for _, u := range users {
			h := hit(u.ID)
			h.User = u
			hits = append(hits, h)
		}
		return hits, err
	}
}

// bind adds v to a and returns its placeholder, which may be written more than once
// (SQLite's numbered ?N: a plain ? takes the next argument each time).
func bind(a *args, v any) string {
	if ph := a.p(v); ph != "?" {
		return ph
	}
	return "?" + strconv.Itoa(len(a.vals))
}

// likeOperator is PostgreSQL's operator that finds t in any case: ILIKE, or LIKE for
// text without cased letters (Chinese), which finds the same and costs less — ILIKE
// lowercases every text it reads.
func likeOperator(t string) string {
	if strings.ToLower(t) == strings.ToUpper(t) {
		return " LIKE "
	}
	return " ILIKE "
}

// likeEscape makes s match itself in a LIKE pattern whose escape character is '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// afterAndLimit ends a ranked statement: the rows after q.After, best first, at most
// q.Limit.
func afterAndLimit(a *args, q search.Query) string {
	var b strings.Builder
	if q.After != nil {
		s := bind(a, q.After.Score)
		b.WriteString(" WHERE score < " + s + " OR (score = " + s + " AND id < " + bind(a, q.After.ID) + ")")
	}
	b.WriteString(" ORDER BY score DESC, id DESC LIMIT " + bind(a, q.Limit))
	return b.String()
}

// rankPostgres ranks the documents matching q exactly, or, with typos, those whose name
// is like q.Text.
func (r *Search) rankPostgres(ctx context.Context, spec searchable, q search.Query, typos bool) ([]ranked, error) {
	a := &args{o: r.raw}
	name := "d." + spec.name
	var score, where string
	if typos {
		text := bind(a, q.Text) + "::text"
		// <% is word_similarity(text, name) >= pg_trgm.word_similarity_threshold, which
		// the GIN index answers.
		score = fmt.Sprintf("(%d + 0.999 * word_similarity(%s, %s))::float8", search.TierTypo, text, name)
		where = text + " <% " + name
	} else {
		// Each term in some column; the name holding every term.
		var every, inName []string
		for _, t := range q.Terms {
			p, op := bind(a, "%"+likeEscape(t)+"%"), likeOperator(t)
			var ors []string
			for _, c := range spec.columns(q) {
				ors = append(ors, "d."+c+op+p)
			}
			every = append(every, "("+strings.Join(ors, " OR ")+")")
			inName = append(inName, name+op+p)
		}
		where = strings.Join(every, " AND ")
		// The relevance within a tier is cheap to compute for every document a common
		// word matches: the share of the name the query covers (the shorter name
		// first), and none for a match in the other fields, whose ties go to the newest.
		// (The word similarity of a long content would cost more than the rest of the
		// search.)
		covered := fmt.Sprintf("0.999 * LEAST(1.0, %d.0 / GREATEST(1, char_length(%s)))", utf8.RuneCountInString(q.Text), name)
		score = fmt.Sprintf("(CASE WHEN %s%s%s THEN %d + %s WHEN %s THEN %d + %s ELSE %d END)::float8",
			name, likeOperator(q.Text), bind(a, likeEscape(q.Text)+"%"), search.TierPrefix, covered,
			strings.Join(inName, " AND "), search.TierName, covered, search.TierOther)
	}
	where = "(" + where + ")"
	if q.TypeID != 0 {
		where += " AND d.type_id = " + bind(a, q.TypeID)
	}
	stmt := "SELECT id, score FROM (SELECT d.id, " + score + " AS score FROM " + spec.table + " d WHERE " + where + ") hits" +
		afterAndLimit(a, q)
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "SELECT set_config('pg_trgm.word_similarity_threshold', $1, true), "+
		"set_config('random_page_cost', $2, true), set_config('max_parallel_workers_per_gather', '0', true)",
		strconv.FormatFloat(postgresTypoSimilarity, 'g', -1, 64), strconv.FormatFloat(postgresSearchPageCost, 'g', -1, 64)); err != nil {
		return nil, err
	}
	out, err := scanRanked(tx.QueryContext(ctx, stmt, a.vals...))
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

// rankSQLite ranks the documents matching q exactly, or, with typos, those whose name is
// like q.Text.
func (r *Search) rankSQLite(ctx context.Context, spec searchable, q search.Query, typos bool) ([]ranked, error) {
	a := &args{o: r.raw}
	name := "d." + spec.name
	var stmt strings.Builder
	if typos {
		share := typoShare(a, name, q.Text)
		where := share + " >= " + strconv.FormatFloat(sqliteTypoShare, 'g', -1, 64)
		if q.TypeID != 0 {
			where += " AND d.type_id = " + bind(a, q.TypeID)
		}
		stmt.WriteString(fmt.Sprintf("WITH hits AS MATERIALIZED (SELECT d.id, %d + 0.999 * %s AS score FROM %s d WHERE %s) SELECT id, score FROM hits",
			search.TierTypo, share, spec.table, where))
		stmt.WriteString(afterAndLimit(a, q))
		return scanRanked(r.db.QueryContext(ctx, stmt.String(), a.vals...))
	}
	// Terms of three characters or more are trigrams the FTS table matches; shorter
	// ones are looked for with LIKE (on the table, which has fewer columns to read).
	var phrases, short, inName []string
	for _, t := range q.Terms {
		p := "'%' || " + bind(a, likeEscape(t)) + " || '%'"
		inName = append(inName, name+" LIKE "+p+` ESCAPE '\'`)
		if utf8.RuneCountInString(t) >= 3 {
			phrase := `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
			if q.NamesOnly {
				phrase = spec.name + " : " + phrase
			}
			phrases = append(phrases, phrase)
			continue
		}
		var ors []string
		for _, c := range spec.columns(q) {
			ors = append(ors, "d."+c+" LIKE "+p+` ESCAPE '\'`)
		}
		short = append(short, "("+strings.Join(ors, " OR ")+")")
	}
	from, rel := spec.table+" d", "0.0"
	if len(phrases) > 0 {
		weights := make([]string, len(spec.weights))
		for i, w := range spec.weights {
			weights[i] = strconv.FormatFloat(w, 'g', -1, 64)
		}
		// bm25 is negative, better the lower: -b / (1 - b) is in [0, 1).
		stmt.WriteString("WITH m AS MATERIALIZED (SELECT rowid AS id, bm25(" + spec.fts + ", " + strings.Join(weights, ", ") + ") AS b FROM " +
			spec.fts + " WHERE " + spec.fts + " MATCH " + bind(a, strings.Join(phrases, " AND ")) + "), ")
		from, rel = "m JOIN "+spec.table+" d ON d.id = m.id", "-m.b / (1 - m.b)"
	} else {
		stmt.WriteString("WITH ")
	}
	where := append([]string{"1"}, short...)
	if q.TypeID != 0 {
		where = append(where, "d.type_id = "+bind(a, q.TypeID))
	}
	tier := fmt.Sprintf("CASE WHEN %s LIKE %s ESCAPE '\\' THEN %d WHEN %s THEN %d ELSE %d END",
		name, bind(a, likeEscape(q.Text)+"%"), search.TierPrefix,
		strings.Join(inName, " AND "), search.TierName, search.TierOther)
	stmt.WriteString("hits AS MATERIALIZED (SELECT d.id, " + tier + " + 0.999 * " + rel + " AS score FROM " + from +
		" WHERE " + strings.Join(where, " AND ") + ") SELECT id, score FROM hits")
	stmt.WriteString(afterAndLimit(a, q))
	return scanRanked(r.db.QueryContext(ctx, stmt.String(), a.vals...))
}

// typoShare is the SQL for the share of text's character pairs found in the name column:
// its first and last characters count as pairs with the start and the end of a word of
// the name (the name's own, or next to a space or a bracket).
func typoShare(a *args, name, text string) string {
	rs := []rune(strings.ReplaceAll(text, " ", ""))
	if len(rs) == 0 {
		return "0.0"
	}
	like := func(pattern string) string { return name + " LIKE " + bind(a, pattern) + ` ESCAPE '\'` }
	seen := map[string]bool{}
	var checks []string
	check := func(gram string, patterns ...string) {
		if seen[gram] {
			return
		}
		seen[gram] = true
		ors := make([]string, len(patterns))
		for i, p := range patterns {
			ors[i] = like(p)
		}
		checks = append(checks, "("+strings.Join(ors, " OR ")+")")
	}
	first, last := likeEscape(string(rs[0])), likeEscape(string(rs[len(rs)-1]))
	check("^"+first, first+"%", "% "+first+"%", "%("+first+"%", "%（"+first+"%")
	for i := 0; i+1 < len(rs); i++ {
		pair := likeEscape(string(rs[i : i+2]))
		check(pair, "%"+pair+"%")
	}
	check(last+"$", "%"+last, "%"+last+" %", "%"+last+")%", "%"+last+"(%", "%"+last+"）%", "%"+last+"（%")
	return "((" + strings.Join(checks, " + ") + ") * 1.0 / " + strconv.Itoa(len(checks)) + ")"
}

func scanRanked(rows *sql.Rows, err error) ([]ranked, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ranked
	for rows.Next() {
		var r ranked
		if err := rows.Scan(&r.id, &r.score); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
