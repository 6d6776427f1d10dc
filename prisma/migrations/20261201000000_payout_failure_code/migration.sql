-- Why a payout failed, as a stable code merchants read (PayoutFailureCode) beside failure_reason.
-- Payouts that failed before it existed keep failure_code NULL (their reason is unchanged).
ALTER TABLE "disbursements" ADD COLUMN "failure_code" TEXT;
