-- atlas:delimiter -- end

-- Search (Query.search, shops(name:)): FTS5 tables with the trigram tokenizer over the
-- text that is searched, written by hand (ent does not model them). Each is an
-- external-content table: it keeps only the index, reads the text from its table by id,
-- and triggers keep it current on every insert, delete and change of that text. A
-- migration that rebuilds one of these tables (CREATE new, copy, DROP, RENAME) drops its
-- triggers with it and must create them again; the search contract tests fail until it
-- does.
CREATE VIRTUAL TABLE `shops_search` USING fts5(`name`, `area`, `address`, content='shops', content_rowid='id', tokenize='trigram');
-- end
CREATE VIRTUAL TABLE `blogs_search` USING fts5(`title`, `content`, content='blogs', content_rowid='id', tokenize='trigram');
-- end
CREATE VIRTUAL TABLE `users_search` USING fts5(`nick_name`, content='users', content_rowid='id', tokenize='trigram');
-- end
CREATE TRIGGER `shops_search_insert` AFTER INSERT ON `shops` BEGIN
  INSERT INTO `shops_search` (rowid, `name`, `area`, `address`) VALUES (new.`id`, new.`name`, new.`area`, new.`address`);
END;
-- end
CREATE TRIGGER `shops_search_delete` AFTER DELETE ON `shops` BEGIN
  INSERT INTO `shops_search` (`shops_search`, rowid, `name`, `area`, `address`) VALUES ('delete', old.`id`, old.`name`, old.`area`, old.`address`);
END;
-- end
CREATE TRIGGER `shops_search_update` AFTER UPDATE OF `name`, `area`, `address` ON `shops`
WHEN old.`name` IS NOT new.`name` OR old.`area` IS NOT new.`area` OR old.`address` IS NOT new.`address` BEGIN
  INSERT INTO `shops_search` (`shops_search`, rowid, `name`, `area`, `address`) VALUES ('delete', old.`id`, old.`name`, old.`area`, old.`address`);
  INSERT INTO `shops_search` (rowid, `name`, `area`, `address`) VALUES (new.`id`, new.`name`, new.`area`, new.`address`);
END;
-- end
CREATE TRIGGER `blogs_search_insert` AFTER INSERT ON `blogs` BEGIN
  INSERT INTO `blogs_search` (rowid, `title`, `content`) VALUES (new.`id`, new.`title`, new.`content`);
END;
-- end
CREATE TRIGGER `blogs_search_delete` AFTER DELETE ON `blogs` BEGIN
  INSERT INTO `blogs_search` (`blogs_search`, rowid, `title`, `content`) VALUES ('delete', old.`id`, old.`title`, old.`content`);
END;
-- end
CREATE TRIGGER `blogs_search_update` AFTER UPDATE OF `title`, `content` ON `blogs`
WHEN old.`title` IS NOT new.`title` OR old.`content` IS NOT new.`content` BEGIN
  INSERT INTO `blogs_search` (`blogs_search`, rowid, `title`, `content`) VALUES ('delete', old.`id`, old.`title`, old.`content`);
  INSERT INTO `blogs_search` (rowid, `title`, `content`) VALUES (new.`id`, new.`title`, new.`content`);
END;
-- end
CREATE TRIGGER `users_search_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `users_search` (rowid, `nick_name`) VALUES (new.`id`, new.`nick_name`);
END;
-- end
CREATE TRIGGER `users_search_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `users_search` (`users_search`, rowid, `nick_name`) VALUES ('delete', old.`id`, old.`nick_name`);
END;
-- end
CREATE TRIGGER `users_search_update` AFTER UPDATE OF `nick_name` ON `users`
WHEN old.`nick_name` IS NOT new.`nick_name` BEGIN
  INSERT INTO `users_search` (`users_search`, rowid, `nick_name`) VALUES ('delete', old.`id`, old.`nick_name`);
  INSERT INTO `users_search` (rowid, `nick_name`) VALUES (new.`id`, new.`nick_name`);
END;
-- end
-- The rows already there.
INSERT INTO `shops_search` (`shops_search`) VALUES ('rebuild');
-- end
INSERT INTO `blogs_search` (`blogs_search`) VALUES ('rebuild');
-- end
INSERT INTO `users_search` (`users_search`) VALUES ('rebuild');
-- end
