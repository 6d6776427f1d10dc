-- A reversed disbursement (a success the beneficiary's bank returned later) keeps its success_at:
-- it did succeed then. And it says when it was reversed and why, as nothing else does.
ALTER TABLE "disbursements" DROP CONSTRAINT "disbursements_final_check";
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_final_check"
    CHECK (("status" IN ('success', 'reversed')) = ("success_at" IS NOT NULL));
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_reversed_check"
    CHECK (("status" = 'reversed') = ("reversed_at" IS NOT NULL AND "reversal_reason" IS NOT NULL));
