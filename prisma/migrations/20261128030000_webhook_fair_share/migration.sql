-- Callback attempts are shared fairly between merchants (issue 39, decision 0024): a dispatcher's
-- claim visits the merchants that have callbacks waiting or in flight (a skip scan of this index:
-- one probe per merchant, however many callbacks one merchant has piled up) and takes, for each
-- merchant under its cap, its oldest due callbacks. Small: unfinished deliveries only.
CREATE INDEX "webhook_deliveries_merchant_due_idx" ON "webhook_deliveries" ("merchant_id", "next_attempt_at")
    WHERE "status" IN ('pending', 'delivering');
