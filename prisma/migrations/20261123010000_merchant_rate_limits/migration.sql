-- Per-merchant overrides of the gateway's rate limits (docs/decisions/0017-rate-limits.md):
-- requests per second for the read and write classes, new recon exports per minute for the
-- export class. NULL keeps the gateway's RATE_LIMIT_* default, so existing merchants are unchanged.
ALTER TABLE "merchants"
  ADD COLUMN "rate_limit_read" INTEGER,
  ADD COLUMN "rate_limit_write" INTEGER,
  ADD COLUMN "rate_limit_export" INTEGER,
  ADD CONSTRAINT "merchants_rate_limits_positive" CHECK (
    ("rate_limit_read" IS NULL OR "rate_limit_read" > 0)
    AND ("rate_limit_write" IS NULL OR "rate_limit_write" > 0)
    AND ("rate_limit_export" IS NULL OR "rate_limit_export" > 0)
  );
