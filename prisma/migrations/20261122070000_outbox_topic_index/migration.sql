-- The relay works each topic apart (one the broker refuses holds back no other): it lists the
-- topics with unpublished rows (a skip scan), takes a batch of one topic in id order, and the
-- outbox metrics count unpublished rows per topic. All three read this small partial index.
CREATE INDEX "outbox_unpublished_topic_idx" ON "outbox"("topic", "id") INCLUDE ("created_at") WHERE "published_at" IS NULL;
