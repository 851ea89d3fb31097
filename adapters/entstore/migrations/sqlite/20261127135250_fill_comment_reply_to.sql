-- Replies from before comments kept the comment they answer: the comment answered is
-- taken to be the latest earlier comment of the reply's thread (its top-level comment or
-- another reply under it) by the user the reply answers; 0 (unknown) when there is none.
UPDATE comments SET reply_to_id = COALESCE((
  SELECT MAX(answered.id) FROM comments answered
  WHERE (answered.id = comments.parent_id OR answered.parent_id = comments.parent_id)
    AND answered.user_id = comments.reply_to_user_id
    AND answered.id < comments.id), 0)
WHERE parent_id > 0 AND reply_to_id = 0;
