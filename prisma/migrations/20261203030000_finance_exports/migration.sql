-- The finance exports (issue 43): the day's journal (every posting of the entries of a Jakarta day)
-- and the trial balance at that day's close, built and served like a merchant's day files but the
-- platform's own: no merchant. One in progress per day and kind.
ALTER TABLE "recon_exports" ALTER COLUMN "merchant_id" DROP NOT NULL;
ALTER TABLE "recon_exports" DROP CONSTRAINT "recon_exports_kind_check";
ALTER TABLE "recon_exports" ADD CONSTRAINT "recon_exports_kind_check"
    CHECK ("kind" IN ('payins', 'payouts', 'movements', 'journal', 'trial-balance'));
-- A merchant's day file has its merchant; the platform's books have none.
ALTER TABLE "recon_exports" ADD CONSTRAINT "recon_exports_owner_check"
    CHECK (("merchant_id" IS NULL) = ("kind" IN ('journal', 'trial-balance')));
-- The books' files: the journal entries they cover (the day's, or all up to its close), which tells
-- a file gone stale (entries are only ever added), and the debit and credit totals.
ALTER TABLE "recon_exports" ADD COLUMN "entry_count" INTEGER;
ALTER TABLE "recon_exports" ADD COLUMN "total_debit" BIGINT;
ALTER TABLE "recon_exports" ADD COLUMN "total_credit" BIGINT;
-- The merchant index treats NULLs as distinct: the platform's exports have their own.
CREATE UNIQUE INDEX "recon_exports_platform_in_progress_key" ON "recon_exports"("date", "kind")
    WHERE "merchant_id" IS NULL AND "status" IN ('queued', 'running');
CREATE INDEX "recon_exports_platform_date_idx" ON "recon_exports"("date", "kind", "created_at")
    WHERE "merchant_id" IS NULL;
