-- Approval before money leaves (issue 44 part 2, docs/payout-approvals.md). A merchant may require a
-- second dashboard user's approval for payouts above an amount (payout_approval_threshold, sen;
-- null: none) within approval_ttl_seconds. Such a disbursement is debited as any (the ledger holds
-- the money) but `approval` = 'awaiting' keeps it from the payout service until a decision:
-- 'approved' (sent as any payout), 'rejected' or 'expired' (failed unsent, the ledger's refund once).
ALTER TABLE "merchants"
    ADD COLUMN "payout_approval_threshold" BIGINT,
    ADD COLUMN "approval_ttl_seconds" INTEGER NOT NULL DEFAULT 86400,
    ADD CONSTRAINT "merchants_payout_approval_threshold_check" CHECK ("payout_approval_threshold" IS NULL OR "payout_approval_threshold" >= 0),
    ADD CONSTRAINT "merchants_approval_ttl_seconds_check" CHECK ("approval_ttl_seconds" BETWEEN 600 AND 604800);

ALTER TABLE "disbursements"
    ADD COLUMN "approval" TEXT,
    ADD COLUMN "approval_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "created_by" TEXT,
    ADD COLUMN "approval_decided_by" TEXT,
    ADD COLUMN "approval_decided_at" TIMESTAMPTZ(3),
    ADD COLUMN "approval_note" TEXT,
    ADD CONSTRAINT "disbursements_approval_check" CHECK ("approval" IS NULL OR "approval" IN ('awaiting', 'approved', 'rejected', 'expired'));

-- The dashboard's page of payouts awaiting approval, and the payout service's look for expiries.
CREATE INDEX "disbursements_awaiting_approval_idx" ON "disbursements"("merchant_id", "approval_expires_at") WHERE "approval" = 'awaiting';
