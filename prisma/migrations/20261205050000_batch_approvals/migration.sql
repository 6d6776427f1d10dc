-- Approval before money leaves for batches (issue 44 part 2, docs/payout-approvals.md): a merchant
-- may require every batch to be approved (batch_approval_required). Such a batch is recorded
-- `awaiting` with its expiry and creator; each row's disbursement takes the batch's approval when
-- it is recorded (held like a payout above the threshold), and one decision on the batch decides
-- all its rows.
ALTER TABLE "merchants" ADD COLUMN "batch_approval_required" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "disbursement_batches"
    ADD COLUMN "approval" TEXT,
    ADD COLUMN "approval_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "created_by" TEXT,
    ADD COLUMN "approval_decided_by" TEXT,
    ADD COLUMN "approval_decided_at" TIMESTAMPTZ(3),
    ADD COLUMN "approval_note" TEXT,
    ADD CONSTRAINT "disbursement_batches_approval_check" CHECK ("approval" IS NULL OR "approval" IN ('awaiting', 'approved', 'rejected'));

CREATE INDEX "disbursement_batches_awaiting_approval_idx" ON "disbursement_batches"("merchant_id", "approval_expires_at") WHERE "approval" = 'awaiting';
