-- Webhook delivery of disbursement outcomes: per-merchant signing secrets, one delivery per
-- event, every attempt recorded.

-- gen_random_uuid() draws from pg_strong_random: two of them give 244 random bits.
ALTER TABLE "merchants"
    ADD COLUMN "webhook_secret" TEXT NOT NULL DEFAULT ('whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')),
    ADD COLUMN "webhook_secret_previous" TEXT,
    ADD COLUMN "webhook_secret_previous_expires_at" TIMESTAMPTZ(3);

-- status: pending (waiting for next_attempt_at), delivering (an attempt holds lease_until),
-- delivered (2xx), failed (a final 4xx), dead (retries exhausted: dead-lettered, resendable).
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "disbursement_id" UUID,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "cycle_attempts" INTEGER NOT NULL DEFAULT 0,
    "resend_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "log_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivering', 'delivered', 'failed', 'dead'))
);
CREATE UNIQUE INDEX "webhook_deliveries_event_id_key" ON "webhook_deliveries"("event_id");
CREATE INDEX "webhook_deliveries_merchant_id_status_idx" ON "webhook_deliveries"("merchant_id", "status", "created_at");
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" IN ('pending', 'delivering');
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt_no" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "response_body" TEXT,
    "outcome" TEXT NOT NULL,
    "next_attempt_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_attempts_outcome_check" CHECK ("outcome" IN ('delivered', 'retry', 'failed', 'dead'))
);
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_no_key" ON "webhook_attempts"("delivery_id", "attempt_no");
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
