-- Manual adjustments of the books (issue 43): one operator asks, another approves or rejects
-- (maker-checker). Approval writes the ledger's books.adjust in the same transaction; what the
-- ledger made of it is in ledger_commands under books.adjust:<id>. merchant_id null: the
-- platform's own accounts only. postings: [{ account, amount }] as the ledger command carries
-- them (amount: signed minor units as text, debit positive).
CREATE TABLE "adjustments" (
    "id"            UUID           NOT NULL PRIMARY KEY,
    "merchant_id"   INTEGER        REFERENCES "merchants"("id"),
    "postings"      JSONB          NOT NULL,
    "reason"        TEXT           NOT NULL,
    "status"        TEXT           NOT NULL DEFAULT 'requested',
    "requested_by"  TEXT           NOT NULL,
    "requested_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "decided_by"    TEXT,
    "decided_at"    TIMESTAMPTZ(3),
    "decision_note" TEXT,
    "expires_at"    TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "adjustments_status_check" CHECK ("status" IN ('requested', 'approved', 'rejected', 'expired')),
    -- The four eyes: nobody approves or rejects their own request, whatever face they use.
    CONSTRAINT "adjustments_maker_checker_check" CHECK ("decided_by" <> "requested_by"),
    -- Approved and rejected say who and when; rejected says why; requested and expired name no decider.
    CONSTRAINT "adjustments_decided_check"
        CHECK (("status" IN ('approved', 'rejected')) = ("decided_by" IS NOT NULL AND "decided_at" IS NOT NULL)),
    CONSTRAINT "adjustments_rejected_note_check" CHECK ("status" <> 'rejected' OR "decision_note" IS NOT NULL),
    CONSTRAINT "adjustments_reason_check" CHECK (length(btrim("reason")) BETWEEN 1 AND 500),
    CONSTRAINT "adjustments_postings_check"
        CHECK (jsonb_typeof("postings") = 'array' AND jsonb_array_length("postings") BETWEEN 2 AND 20),
    CONSTRAINT "adjustments_expiry_check" CHECK ("expires_at" > "requested_at")
);

CREATE INDEX "adjustments_requested_at_idx" ON "adjustments" ("requested_at" DESC, "id");
CREATE INDEX "adjustments_merchant_idx" ON "adjustments" ("merchant_id", "requested_at" DESC) WHERE "merchant_id" IS NOT NULL;
