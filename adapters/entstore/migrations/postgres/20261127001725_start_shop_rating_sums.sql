-- Shops from before ratings were added up: their reviews so far count as ratings of
-- their score (a tenth of a star per unit), so the next note moves the score from there.
UPDATE shops SET rating_count = comments, rating_sum = (score * comments) / 10;
