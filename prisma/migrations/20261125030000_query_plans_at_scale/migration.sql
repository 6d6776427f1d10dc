-- Hot query plans on a realistic history (docs/decisions/0019-query-plans-at-scale.md).

-- The settlement planner asks, per merchant and planning run, whether the settlement's credit
-- command already waits in the outbox: `topic = 'ledger.commands.v1' AND headers->>'message-id' = $1`.
-- No index held it: a Seq Scan of the whole outbox (7 million rows, 6 s) per merchant. Only
-- commands to the ledger are looked up this way, so the index holds only those rows.
CREATE INDEX "outbox_command_message_id_idx" ON "outbox" (("headers"->>'message-id')) WHERE "topic" = 'ledger.commands.v1';

-- The recon export reads a merchant's day in (created_at, id) order. The index had created_at
-- only: on a large table the planner took a bitmap scan and sorted the whole day (a million rows
-- spill to disk). With id in the key the index scan is the order, and nothing is sorted.
DROP INDEX "payins_merchant_id_created_at_idx";
CREATE INDEX "payins_merchant_id_created_at_idx" ON "payins" ("merchant_id", "created_at", "id");
