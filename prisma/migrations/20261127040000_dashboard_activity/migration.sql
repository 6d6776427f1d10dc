-- The merchant's activity log (docs/decisions/0023, "The merchant's activity log"): the table of
-- the console's audit log now also holds what merchant dashboard users did. merchant_id is null
-- for an operator's row (the console's audit log lists only those) and the user's merchant for a
-- merchant user's row (GET /dashboard/api/activity lists the merchant's own, newest first).
-- operator_user_id stays the acting dashboard user (an operator or a merchant user).
ALTER TABLE "operator_audit_log" ADD COLUMN "merchant_id" INTEGER;
ALTER TABLE "operator_audit_log" ADD CONSTRAINT "operator_audit_log_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "operator_audit_log_merchant_id_id_idx" ON "operator_audit_log" ("merchant_id", "id" DESC);
COMMENT ON TABLE "operator_audit_log" IS 'One row per dashboard or console action that changed something (and merchant users'' sign-ins and sign-outs); merchant_id null: an operator''s';
