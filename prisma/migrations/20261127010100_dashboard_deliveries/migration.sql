-- The merchant dashboard's payout and pay-in details list the callback deliveries of one
-- transaction (and their attempts). Without these, that is a scan of every delivery of the
-- merchant. Partial: a delivery is about a disbursement or a pay-in, never both.
CREATE INDEX "webhook_deliveries_disbursement_id_idx" ON "webhook_deliveries" ("disbursement_id") WHERE "disbursement_id" IS NOT NULL;
CREATE INDEX "webhook_deliveries_payin_id_idx" ON "webhook_deliveries" ("payin_id") WHERE "payin_id" IS NOT NULL;
