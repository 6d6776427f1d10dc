-- Refunds in the acquirer's settlement (docs/operations/reconciliation.md): the refund lines of an
-- ingested settlement report, each a refund the acquirer made (it paid the payer back) and netted
-- from a batch. Matched one to one with the ledger's successful refunds (partner_refund_no = our
-- payin_refunds.id, else the pay-in's RRN and the amount). Amounts in sen; days are Jakarta days.
CREATE TABLE "recon_report_refunds" (
    "source_id"         UUID    NOT NULL REFERENCES "recon_sources"("id") ON DELETE CASCADE,
    "line_no"           INTEGER NOT NULL,
    -- the refunded pay-in's RRN
    "rrn"               TEXT    NOT NULL,
    -- the acquirer's refundNo, and ours (partnerRefundNo) when it gives it back
    "refund_no"         TEXT,
    "partner_refund_no" TEXT,
    "batch_id"          TEXT    NOT NULL,
    "amount"            BIGINT  NOT NULL,
    "refund_date"       DATE,
    PRIMARY KEY ("source_id", "line_no"),
    CONSTRAINT "recon_report_refunds_amount_check" CHECK ("amount" > 0)
);
CREATE INDEX "recon_report_refunds_batch_idx" ON "recon_report_refunds" ("batch_id");
CREATE INDEX "recon_report_refunds_partner_idx" ON "recon_report_refunds" ("partner_refund_no");
