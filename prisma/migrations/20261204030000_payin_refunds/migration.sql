-- QRIS refunds (issue 44 part 3): a merchant's refund of one of its successful pay-ins, idempotent
-- by (merchant, refund_id) among the refunds the ledger did not refuse. `debiting` while the ledger
-- decides; `refused` (INSUFFICIENT_BALANCE, kept for the record, its refund_id free again);
-- `pending` once debited (from `source`), sent to the acquirer until it answers; `success` or
-- `failed` (the money given back by the ledger's payin.refund_return, return_event_id).
CREATE TABLE "payin_refunds" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "payin_id" UUID NOT NULL,
    "refund_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL,
    "source" TEXT,
    "from_pending" BIGINT NOT NULL DEFAULT 0,
    "from_available" BIGINT NOT NULL DEFAULT 0,
    "ledger_event_id" BIGINT,
    "return_event_id" BIGINT,
    "refusal_reason" TEXT,
    "refund_no" TEXT,
    "refund_time" TEXT,
    "failure_reason" TEXT,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "log_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "payin_refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payin_refunds_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "payin_refunds_payin_id_fkey" FOREIGN KEY ("payin_id") REFERENCES "payins"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "payin_refunds_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "payin_refunds_status_check" CHECK ("status" IN ('debiting', 'refused', 'pending', 'success', 'failed')),
    CONSTRAINT "payin_refunds_source_check" CHECK ("source" IS NULL OR "source" IN ('pending', 'available')),
    CONSTRAINT "payin_refunds_split_check" CHECK ("from_pending" >= 0 AND "from_available" >= 0
        AND ("ledger_event_id" IS NULL OR "from_pending" + "from_available" = "amount"))
);
-- One live refund per merchant's refundId (a refused attempt frees it)
CREATE UNIQUE INDEX "payin_refunds_merchant_id_refund_id_key" ON "payin_refunds" ("merchant_id", "refund_id") WHERE "status" <> 'refused';
CREATE INDEX "payin_refunds_payin_id_idx" ON "payin_refunds" ("payin_id");
CREATE INDEX "payin_refunds_merchant_id_created_at_idx" ON "payin_refunds" ("merchant_id", "created_at", "id");
-- The sender's queue: debited refunds the acquirer has not answered yet
CREATE INDEX "payin_refunds_due_idx" ON "payin_refunds" ("next_attempt_at") WHERE "status" = 'pending';


-- What refunds of an unsettled pay-in took from pending (and did not give back): its settlement
-- moves only the rest of its net. A settlement records the sum over its pay-ins.
ALTER TABLE "payins" ADD COLUMN "refunded_pending" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "settlements" ADD COLUMN "refunds" BIGINT NOT NULL DEFAULT 0;
