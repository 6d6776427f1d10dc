-- The merchant dashboard's overview (GET /dashboard/api/overview): successful pay-ins per day of
-- their success time, over the last 30 days. No existing index has success_at for settled
-- pay-ins (payins_merchant_id_success_at_idx holds the unsettled ones only, for the settlement
-- scan), and the creation-time indexes would read the rows of every status and then the heap.
-- This one is the overview's range as an index-only scan (amount is included).
CREATE INDEX "payins_merchant_id_paid_idx" ON "payins" ("merchant_id", "success_at") INCLUDE ("amount") WHERE "status" = 'success';
