// Package searchtest holds the contract of search.Index — the suite every index runs
// (SQLite's and PostgreSQL's, and the in-memory fake, so that the fake cannot drift from
// them) — and the fake, MemIndex.
package searchtest
