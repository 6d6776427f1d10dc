-- The day's reconciliation report as a finance export (issue 43, docs/operations/reconciliation.md):
-- every run of a Jakarta day (each acquirer and rail) as one CSV, built and served like the books'
-- files (no merchant). Its open breaks, and a digest of the day's runs and breaks as of the file:
-- a re-run, an assign or a resolve changes the digest, and the file is stale.
ALTER TABLE "recon_exports" DROP CONSTRAINT "recon_exports_kind_check";
ALTER TABLE "recon_exports" ADD CONSTRAINT "recon_exports_kind_check"
    CHECK ("kind" IN ('payins', 'payouts', 'movements', 'journal', 'trial-balance', 'reconciliation'));
ALTER TABLE "recon_exports" DROP CONSTRAINT "recon_exports_owner_check";
ALTER TABLE "recon_exports" ADD CONSTRAINT "recon_exports_owner_check"
    CHECK (("merchant_id" IS NULL) = ("kind" IN ('journal', 'trial-balance', 'reconciliation')));
ALTER TABLE "recon_exports" ADD COLUMN "open_breaks" INTEGER;
ALTER TABLE "recon_exports" ADD COLUMN "data_digest" TEXT;
