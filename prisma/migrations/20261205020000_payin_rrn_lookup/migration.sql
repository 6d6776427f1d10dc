-- A pay-in looked up by its RRN (issue 45, part 3): the payer's receipt shows the RRN, not the
-- merchant's id; POST /api/v1/payin/qris/inquiry takes either. One merchant's pay-ins only, and
-- only the paid ones carry an RRN.
CREATE INDEX "payins_merchant_id_rrn_idx" ON "payins" ("merchant_id", "rrn") WHERE "rrn" IS NOT NULL;
