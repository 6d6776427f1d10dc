-- Reconciliation exports: one CSV of a merchant's pay-ins of one date (Asia/Jakarta) in
-- object storage, built by a worker.

-- When a pay-in last changed, so an export knows it went stale.
ALTER TABLE "payins" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
CREATE FUNCTION "payins_touch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."updated_at" := clock_timestamp();
    RETURN NEW;
END;
$$;
CREATE TRIGGER "payins_touch" BEFORE UPDATE ON "payins" FOR EACH ROW EXECUTE FUNCTION "payins_touch"();
CREATE INDEX "payins_merchant_id_created_at_idx" ON "payins"("merchant_id", "created_at");

-- status: queued | running | ready | failed. A failed export is reported once, then a new
-- request starts a new one.
CREATE TABLE "recon_exports" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "object_key" TEXT,
    "row_count" INTEGER,
    "gross" BIGINT,
    "fees" BIGINT,
    "net" BIGINT,
    "data_as_of" TIMESTAMPTZ(3),
    "error" TEXT,
    "failure_reported" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "recon_exports_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "recon_exports_status_check" CHECK ("status" IN ('queued', 'running', 'ready', 'failed'))
);
CREATE INDEX "recon_exports_merchant_id_date_idx" ON "recon_exports"("merchant_id", "date", "created_at");
-- At most one export in progress per merchant and date.
CREATE UNIQUE INDEX "recon_exports_in_progress_key" ON "recon_exports"("merchant_id", "date") WHERE "status" IN ('queued', 'running');
ALTER TABLE "recon_exports" ADD CONSTRAINT "recon_exports_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
