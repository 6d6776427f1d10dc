-- Batch payouts (issue 44): a merchant's batch, idempotent by (merchant, batch_id), and its rows.
-- A row refused at submission stays `refused` with its code; an accepted row waits `checking`
-- (the platform's name check through the rail, retried while the bank is away) and then is
-- `submitted`: a normal disbursement (disbursement_id) whose own status is the row's from then on,
-- or `refused` (the bank's answer, a name mismatch, a merchantTrxId taken meanwhile).
CREATE TABLE "disbursement_batches" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "batch_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "notify_url" TEXT,
    "row_count" INTEGER NOT NULL,
    "accepted_count" INTEGER NOT NULL,
    "log_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "disbursement_batches_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "disbursement_batches_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "disbursement_batches_merchant_id_batch_id_key" ON "disbursement_batches" ("merchant_id", "batch_id");
-- The batches whose completion is still to be seen (and announced): a handful at any time
CREATE INDEX "disbursement_batches_open_idx" ON "disbursement_batches" ("created_at") WHERE "completed_at" IS NULL;

CREATE TABLE "disbursement_batch_rows" (
    "batch_id" UUID NOT NULL,
    "row_no" INTEGER NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "merchant_trx_id" TEXT NOT NULL,
    "bank_code" TEXT NOT NULL,
    "account_no" TEXT NOT NULL,
    "account_name" TEXT,
    "amount" BIGINT,
    -- The submission's answer for the row (replayed as it was): accepted, or refused at once
    "accepted" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "disbursement_id" UUID,
    "check_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_check_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "disbursement_batch_rows_pkey" PRIMARY KEY ("batch_id", "row_no"),
    CONSTRAINT "disbursement_batch_rows_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "disbursement_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "disbursement_batch_rows_disbursement_id_fkey" FOREIGN KEY ("disbursement_id") REFERENCES "disbursements"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "disbursement_batch_rows_status_check" CHECK ("status" IN ('refused', 'checking', 'submitted')),
    CONSTRAINT "disbursement_batch_rows_refused_check" CHECK (("status" = 'refused') = ("failure_code" IS NOT NULL)),
    CONSTRAINT "disbursement_batch_rows_submitted_check" CHECK (("status" = 'submitted') = ("disbursement_id" IS NOT NULL)),
    CONSTRAINT "disbursement_batch_rows_amount_check" CHECK ("status" = 'refused' OR "amount" > 0),
    CONSTRAINT "disbursement_batch_rows_accepted_check" CHECK ("accepted" OR "status" = 'refused')
);
-- The name checks due (the payout service's batch loop claims from it)
CREATE INDEX "disbursement_batch_rows_due_idx" ON "disbursement_batch_rows" ("next_check_at") WHERE "status" = 'checking';
-- An accepted row holds its merchantTrxId until its disbursement is recorded (or it is refused)
CREATE UNIQUE INDEX "disbursement_batch_rows_checking_trx_key" ON "disbursement_batch_rows" ("merchant_id", "merchant_trx_id") WHERE "status" = 'checking';
CREATE INDEX "disbursement_batch_rows_disbursement_id_idx" ON "disbursement_batch_rows" ("disbursement_id") WHERE "disbursement_id" IS NOT NULL;
