-- Pay-in callbacks (payin.succeeded, payin.failed, payin.expired) through the webhook machinery.

-- The merchant's own callback URL for one pay-in (wins over the merchant default below).
ALTER TABLE "payins" ADD COLUMN "notify_url" TEXT;
-- The default pay-in callback URL of a merchant; null: pay-ins without notifyUrl get no callback.
ALTER TABLE "merchants" ADD COLUMN "payin_callback_url" TEXT;

-- `expired` is now stored: the expiry scan moves a pending code past expires_at to it (the
-- inquiry already showed it as `expired` at read time).
ALTER TABLE "payins" DROP CONSTRAINT "payins_status_check";
ALTER TABLE "payins" ADD CONSTRAINT "payins_status_check" CHECK ("status" IN ('pending', 'success', 'failed', 'expired'));
-- What the expiry scan reads: pending codes by expiry. Small (pending codes only), so an idle scan costs one index probe.
CREATE INDEX "payins_pending_expires_at_idx" ON "payins" ("expires_at") WHERE "status" = 'pending';

-- A delivery is of a disbursement or of a pay-in (no foreign key, as for disbursement_id).
ALTER TABLE "webhook_deliveries" ADD COLUMN "payin_id" UUID;

-- Pay-in deliveries are written by the gateway (in the transaction of the pay-in's change), not
-- by the workers' intake: wake the workers' dispatcher when such a transaction commits, rather
-- than at its safety-net round. One notification per transaction (identical payloads coalesce).
CREATE FUNCTION "webhook_delivery_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('webhook_delivery_inserted', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER "webhook_delivery_notify_after_insert" AFTER INSERT ON "webhook_deliveries"
    FOR EACH ROW WHEN (NEW."payin_id" IS NOT NULL) EXECUTE FUNCTION "webhook_delivery_notify"();
