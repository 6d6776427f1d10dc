-- Every request a bank rail sends about a disbursement (issue 40): written before the request
-- leaves, so a status inquiry can always name the attempt (its X-EXTERNAL-ID) and an operator can
-- see what was sent, when, and what came back. Append-only but for the answer of its own row.
CREATE TABLE "rail_attempts" (
    "id" BIGSERIAL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "service" TEXT NOT NULL,
    -- Our disbursement id, sent as partnerReferenceNo (originalPartnerReferenceNo on a status inquiry)
    "partner_reference_no" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    -- The bank's reference, once an answer carried one
    "reference_no" TEXT,
    "response_code" TEXT,
    -- answer | unknown | not_sent (null while the request is out)
    "outcome" TEXT,
    -- The request did not reach the bank or was refused before it was processed: it moved no money
    "not_executed" BOOLEAN NOT NULL DEFAULT false,
    "answered_at" TIMESTAMPTZ(3),
    CONSTRAINT "rail_attempts_external_id_unique" UNIQUE ("provider", "external_id")
);
CREATE INDEX "rail_attempts_by_reference" ON "rail_attempts" ("partner_reference_no", "id");
