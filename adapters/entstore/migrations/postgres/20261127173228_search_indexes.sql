-- Search (Query.search, shops(name:)): trigram indexes (pg_trgm) on the text that is
-- searched, written by hand: ent does not model them, and the drift check leaves indexes
-- named search_* alone (internal/tools/migrations). A GIN trigram index answers
-- ILIKE '%…%' and the word-similarity operator <% alike; the database's ctype must make
-- Chinese characters letters (C.UTF-8 or a UTF-8 locale) for them to form trigrams.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "search_shops_name" ON "shops" USING gin ("name" gin_trgm_ops);
CREATE INDEX "search_shops_area" ON "shops" USING gin ("area" gin_trgm_ops);
CREATE INDEX "search_shops_address" ON "shops" USING gin ("address" gin_trgm_ops);
CREATE INDEX "search_blogs_title" ON "blogs" USING gin ("title" gin_trgm_ops);
CREATE INDEX "search_blogs_content" ON "blogs" USING gin ("content" gin_trgm_ops);
CREATE INDEX "search_users_nick_name" ON "users" USING gin ("nick_name" gin_trgm_ops);
