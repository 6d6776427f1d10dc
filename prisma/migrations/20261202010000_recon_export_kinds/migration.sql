-- The day files a merchant can export: its pay-ins (the recon file of the specification, as before),
-- its payouts (with fees and failure reasons), and its balance movements (every ledger event).
-- Each kind of a day is its own export: one in progress per merchant, date and kind.
ALTER TABLE "recon_exports" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'payins'
  CONSTRAINT "recon_exports_kind_check" CHECK ("kind" IN ('payins', 'payouts', 'movements'));
DROP INDEX "recon_exports_in_progress_key";
CREATE UNIQUE INDEX "recon_exports_in_progress_key" ON "recon_exports"("merchant_id", "date", "kind") WHERE "status" IN ('queued', 'running');
DROP INDEX "recon_exports_merchant_id_date_idx";
CREATE INDEX "recon_exports_merchant_id_date_idx" ON "recon_exports"("merchant_id", "date", "kind", "created_at");
