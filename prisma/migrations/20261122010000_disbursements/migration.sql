-- Disbursement: account inquiries, disbursements and the sandbox bank rail's own ledger of transfers.

CREATE TABLE "disbursement_inquiries" (
    "platform_trx_id" TEXT NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "merchant_trx_id" TEXT NOT NULL,
    "bank_code" TEXT NOT NULL,
    "account_no" TEXT NOT NULL,
    "account_name" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "disbursement_inquiries_pkey" PRIMARY KEY ("platform_trx_id"),
    CONSTRAINT "disbursement_inquiries_amounts_check" CHECK ("amount" > 0 AND "fee" >= 0)
);
CREATE INDEX "disbursement_inquiries_merchant_id_merchant_trx_id_idx" ON "disbursement_inquiries"("merchant_id", "merchant_trx_id");
ALTER TABLE "disbursement_inquiries" ADD CONSTRAINT "disbursement_inquiries_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- status: funding (waiting for the ledger's debit decision), refused (the ledger refused the
-- debit: kept for audit, invisible to the merchant, frees merchantTrxId and the inquiry),
-- pending (debited, being paid out), success, failed (refunded).
CREATE TABLE "disbursements" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "merchant_trx_id" TEXT NOT NULL,
    "platform_trx_id" TEXT NOT NULL,
    "bank_code" TEXT NOT NULL,
    "account_no" TEXT NOT NULL,
    "account_name" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "notify_url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "refusal_reason" TEXT,
    "failure_reason" TEXT,
    "rail_reference" TEXT,
    "submit_attempts" INTEGER NOT NULL DEFAULT 0,
    "submitted_at" TIMESTAMPTZ(3),
    "next_check_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "debited_at" TIMESTAMPTZ(3),
    "success_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "log_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "disbursements_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "disbursements_status_check" CHECK ("status" IN ('funding', 'refused', 'pending', 'success', 'failed')),
    CONSTRAINT "disbursements_amounts_check" CHECK ("amount" > 0 AND "fee" >= 0),
    CONSTRAINT "disbursements_final_check" CHECK (("status" = 'success') = ("success_at" IS NOT NULL))
);
-- One live transfer per merchantTrxId and per inquiry; a refused attempt frees both.
CREATE UNIQUE INDEX "disbursements_merchant_trx_live_key" ON "disbursements"("merchant_id", "merchant_trx_id") WHERE "status" <> 'refused';
CREATE UNIQUE INDEX "disbursements_inquiry_live_key" ON "disbursements"("platform_trx_id") WHERE "status" <> 'refused';
CREATE INDEX "disbursements_due_idx" ON "disbursements"("next_check_at") WHERE "status" = 'pending';
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_platform_trx_id_fkey" FOREIGN KEY ("platform_trx_id") REFERENCES "disbursement_inquiries"("platform_trx_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The sandbox bank rail is a simulated bank: it keeps its own record of every transfer it was
-- asked to make, keyed by our idempotency key, so a retried submission never pays twice.
CREATE TABLE "sandbox_rail_transfers" (
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "bank_code" TEXT NOT NULL,
    "account_no" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "outcome" TEXT NOT NULL,
    "failure_reason" TEXT,
    "settles_at" TIMESTAMPTZ(3) NOT NULL,
    "submissions" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sandbox_rail_transfers_pkey" PRIMARY KEY ("idempotency_key"),
    CONSTRAINT "sandbox_rail_transfers_outcome_check" CHECK ("outcome" IN ('completed', 'failed'))
);
CREATE UNIQUE INDEX "sandbox_rail_transfers_reference_key" ON "sandbox_rail_transfers"("reference");
