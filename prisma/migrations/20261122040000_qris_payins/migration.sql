-- QRIS pay-ins: merchant QRIS identity and settlement schedule, dynamic codes, acquirer
-- notifications, settlement records.

ALTER TABLE "merchants"
    ADD COLUMN "nmid" TEXT,
    ADD COLUMN "mcc" TEXT NOT NULL DEFAULT '5499',
    ADD COLUMN "merchant_criteria" TEXT NOT NULL DEFAULT 'UMI',
    ADD COLUMN "city" TEXT NOT NULL DEFAULT 'JAKARTA',
    ADD COLUMN "postal_code" TEXT,
    ADD COLUMN "settlement_delay_days" INTEGER NOT NULL DEFAULT 1,
    ADD COLUMN "settlement_hour" INTEGER NOT NULL DEFAULT 10,
    ADD CONSTRAINT "merchants_mcc_check" CHECK ("mcc" ~ '^\d{4}$'),
    ADD CONSTRAINT "merchants_criteria_check" CHECK ("merchant_criteria" IN ('UMI', 'UKE', 'UME', 'UBE', 'URE')),
    ADD CONSTRAINT "merchants_settlement_check" CHECK ("settlement_delay_days" BETWEEN 1 AND 30 AND "settlement_hour" BETWEEN 0 AND 23);

-- Until an acquirer assigns the real NMID (admin merchant set-qris), a sandbox one derived from the id.
UPDATE "merchants" SET "nmid" = 'ID10' || lpad("id"::text, 11, '0') WHERE "nmid" IS NULL;
CREATE FUNCTION "merchants_default_nmid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."nmid" IS NULL THEN NEW."nmid" := 'ID10' || lpad(NEW."id"::text, 11, '0'); END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER "merchants_default_nmid" BEFORE INSERT ON "merchants" FOR EACH ROW EXECUTE FUNCTION "merchants_default_nmid"();
ALTER TABLE "merchants" ALTER COLUMN "nmid" SET NOT NULL, ADD CONSTRAINT "merchants_nmid_check" CHECK ("nmid" ~ '^ID\d{10,13}$');
CREATE UNIQUE INDEX "merchants_nmid_key" ON "merchants"("nmid");

-- status: pending (code issued) | success (paid) | failed (the acquirer reported a failed payment).
-- "expired" is read, not stored: a pending code past expires_at.
ALTER TABLE "payins"
    ADD COLUMN "expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "qris_payload" TEXT,
    ADD COLUMN "nmid" TEXT,
    ADD COLUMN "acquirer_reference" TEXT,
    ADD COLUMN "issuer" TEXT,
    ADD COLUMN "failure_reason" TEXT,
    ADD COLUMN "log_id" TEXT,
    ADD CONSTRAINT "payins_status_check" CHECK ("status" IN ('pending', 'success', 'failed'));
CREATE UNIQUE INDEX "payins_acquirer_reference_key" ON "payins"("acquirer_reference");
CREATE INDEX "payins_merchant_id_success_at_idx" ON "payins"("merchant_id", "success_at") WHERE "status" = 'success' AND "settlement_id" IS NULL;

-- Every notification the acquirer sent, accepted or refused, for reconciliation and disputes.
CREATE TABLE "acquirer_notifications" (
    "id" BIGSERIAL NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acquirer_reference" TEXT,
    "platform_trx_id" TEXT,
    "payin_id" UUID,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "body" TEXT NOT NULL,
    CONSTRAINT "acquirer_notifications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "acquirer_notifications_outcome_check" CHECK ("outcome" IN ('accepted', 'duplicate', 'refused'))
);
CREATE INDEX "acquirer_notifications_platform_trx_id_idx" ON "acquirer_notifications"("platform_trx_id");

ALTER TABLE "settlements"
    ADD COLUMN "cutoff_at" TIMESTAMPTZ(3),
    ADD COLUMN "gross" BIGINT,
    ADD COLUMN "fees" BIGINT;
CREATE UNIQUE INDEX "settlements_merchant_id_cutoff_at_key" ON "settlements"("merchant_id", "cutoff_at") WHERE "cutoff_at" IS NOT NULL;
