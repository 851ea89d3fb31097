package entstore

import (
	"context"
	"database/sql"
	"fmt"
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

// searchable is where a kind of document lives and which of its columns are searched.
type searchable struct {
	table string
	// fts is SQLite's FTS5 table over the columns.
	fts string
	// name is the column a typo is forgiven in and whose match ranks highest; others
	// are the other searched columns.
	name   string
	others []string
	// weights are the columns' weights in the relevance, name first.
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
// read-only transaction when typos are forgiven, which sets the word-similarity
// threshold for it), then their documents by id.
func (r *Search) Search(ctx context.Context, q search.Query) ([]search.Hit, error) {
	spec, ok := searchables[q.Kind]
	if !ok || len(q.Terms) == 0 || q.Limit <= 0 {
		return nil, nil
	}
	var (
		rows []ranked
		err  error
	)
	if r.dialect == dialect.Postgres {
		rows, err = r.rankPostgres(ctx, spec, q)
	} else {
		rows, err = r.rankSQLite(ctx, spec, q)
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

func (r *Search) rankPostgres(ctx context.Context, spec searchable, q search.Query) ([]ranked, error) {
	a := &args{o: r.raw}
	cols := spec.columns(q)
	name := "d." + spec.name
	text := bind(a, q.Text) + "::text"
	// Each term in some column; the name holding every term.
	var every, inName []string
	for _, t := range q.Terms {
		p := bind(a, "%"+likeEscape(t)+"%")
		var ors []string
		for _, c := range cols {
			ors = append(ors, "d."+c+" ILIKE "+p)
		}
		every = append(every, "("+strings.Join(ors, " OR ")+")")
		inName = append(inName, name+" ILIKE "+p)
	}
	match := strings.Join(every, " AND ")
	typo := "false"
	if q.Typos {
		// <% is word_similarity(text, name) >= pg_trgm.word_similarity_threshold, which
		// the GIN index answers.
		typo = text + " <% " + name
		match = "(" + match + ") OR " + typo
	}
	where := "(" + match + ")"
	if q.TypeID != 0 {
		where += " AND d.type_id = " + bind(a, q.TypeID)
	}
	var rel []string
	total := 0.0
	for i, c := range cols {
		rel = append(rel, strconv.FormatFloat(spec.weights[i], 'g', -1, 64)+" * word_similarity("+text+", d."+c+")")
		total += spec.weights[i]
	}
	score := fmt.Sprintf("(CASE WHEN %s ILIKE %s THEN %d WHEN %s THEN %d WHEN %s THEN %d ELSE %d END + 0.999 * (%s) / %s)::float8",
		name, bind(a, likeEscape(q.Text)+"%"), search.TierPrefix,
		strings.Join(inName, " AND "), search.TierName,
		typo, search.TierTypo, search.TierOther,
		strings.Join(rel, " + "), strconv.FormatFloat(total, 'g', -1, 64))
	stmt := "SELECT id, score FROM (SELECT d.id, " + score + " AS score FROM " + spec.table + " d WHERE " + where + ") hits" +
		afterAndLimit(a, q)
	if !q.Typos {
		return scanRanked(r.db.QueryContext(ctx, stmt, a.vals...))
	}
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)",
		strconv.FormatFloat(postgresTypoSimilarity, 'g', -1, 64)); err != nil {
		return nil, err
	}
	out, err := scanRanked(tx.QueryContext(ctx, stmt, a.vals...))
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

func (r *Search) rankSQLite(ctx context.Context, spec searchable, q search.Query) ([]ranked, error) {
	a := &args{o: r.raw}
	cols := spec.columns(q)
	name := "d." + spec.name
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
		for _, c := range cols {
			ors = append(ors, "d."+c+" LIKE "+p+` ESCAPE '\'`)
		}
		short = append(short, "("+strings.Join(ors, " OR ")+")")
	}
	var (
		stmt  strings.Builder
		exact []string
		from  = spec.table + " d"
		rel   = "0.0"
	)
	if len(phrases) > 0 {
		weights := make([]string, len(spec.weights))
		for i, w := range spec.weights {
			weights[i] = strconv.FormatFloat(w, 'g', -1, 64)
		}
		// bm25 is negative, better the lower: -b / (1 - b) is in [0, 1).
		stmt.WriteString("WITH m AS MATERIALIZED (SELECT rowid AS id, bm25(" + spec.fts + ", " + strings.Join(weights, ", ") + ") AS b FROM " +
			spec.fts + " WHERE " + spec.fts + " MATCH " + bind(a, strings.Join(phrases, " AND ")) + "), ")
		exact = append(exact, "m.id IS NOT NULL")
		from = "m JOIN " + spec.table + " d ON d.id = m.id"
		rel = "COALESCE(-m.b / (1 - m.b), 0.0)"
	} else {
		stmt.WriteString("WITH ")
	}
	exact = append(exact, short...)
	match := strings.Join(exact, " AND ")
	share := "0.0"
	if q.Typos {
		share = typoShare(a, name, q.Text)
		if len(phrases) > 0 {
			from = spec.table + " d LEFT JOIN m ON m.id = d.id"
		}
		match = "(" + match + ") OR " + share + " >= " + strconv.FormatFloat(sqliteTypoShare, 'g', -1, 64)
	}
	where := "(" + match + ")"
	if q.TypeID != 0 {
		where += " AND d.type_id = " + bind(a, q.TypeID)
	}
	tier := fmt.Sprintf("CASE WHEN %s LIKE %s ESCAPE '\\' THEN %d WHEN %s THEN %d WHEN %s THEN %d ELSE %d END",
		name, bind(a, likeEscape(q.Text)+"%"), search.TierPrefix,
		strings.Join(inName, " AND "), search.TierName,
		strings.Join(exact, " AND "), search.TierOther, search.TierTypo)
	stmt.WriteString("t AS MATERIALIZED (SELECT d.id, " + tier + " AS tier, " + rel + " AS rel, " + share + " AS share FROM " + from +
		" WHERE " + where + "), hits AS MATERIALIZED (SELECT id, tier + 0.999 * (CASE WHEN tier = " + strconv.Itoa(search.TierTypo) +
		" THEN share ELSE rel END) AS score FROM t) SELECT id, score FROM hits")
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
