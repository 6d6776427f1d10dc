-- Merchant history lists (GET /api/v1/balance/movements, /disbursement/list, /payin/list).

-- Every ledger event carries the balance it left: the ledger knows it when it writes the event
-- (its projection row is locked), and a list page then reads it from the row. Without it,
-- "available after" of an event deep in a merchant's history is a sum over every event before
-- it: a window over a million rows per page. Existing events are backfilled with that sum once.
ALTER TABLE "ledger_events" ADD COLUMN "available_after" BIGINT, ADD COLUMN "pending_after" BIGINT;
ALTER TABLE "ledger_events" DISABLE TRIGGER "ledger_events_no_update_delete";
UPDATE "ledger_events" e
   SET "available_after" = r.available_after, "pending_after" = r.pending_after
  FROM (SELECT "id",
               sum("available_delta") OVER w AS available_after,
               sum("pending_delta") OVER w AS pending_after
          FROM "ledger_events"
        WINDOW w AS (PARTITION BY "merchant_id" ORDER BY "seq")) r
 WHERE e."id" = r."id";
ALTER TABLE "ledger_events" ENABLE TRIGGER "ledger_events_no_update_delete";
ALTER TABLE "ledger_events" ALTER COLUMN "available_after" SET NOT NULL, ALTER COLUMN "pending_after" SET NOT NULL;

-- Pages are read newest first by (created_at, id) within one merchant, optionally of one status:
-- each list has an index whose order is the page's, so a page is an index range scan of
-- `limit + 1` entries wherever the cursor points, and nothing is sorted.
CREATE INDEX "ledger_events_merchant_id_occurred_at_idx" ON "ledger_events" ("merchant_id", "occurred_at", "id");
CREATE INDEX "disbursements_merchant_id_created_at_idx" ON "disbursements" ("merchant_id", "created_at", "id");
CREATE INDEX "disbursements_merchant_id_status_created_at_idx" ON "disbursements" ("merchant_id", "status", "created_at", "id");
CREATE INDEX "payins_merchant_id_status_created_at_idx" ON "payins" ("merchant_id", "status", "created_at", "id");
