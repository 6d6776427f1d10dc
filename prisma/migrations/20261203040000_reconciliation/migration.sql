-- Three-way reconciliation (issue 43, docs/operations/reconciliation.md): what the acquirer's
-- settlement report and the bank's statement said, as ingested (a day's report or statement
-- ingested again replaces its lines), each day's run, and its breaks with an owner and a
-- resolution. Amounts in sen; days are Jakarta days.
CREATE TABLE "recon_sources" (
    "id"          UUID           NOT NULL PRIMARY KEY,
    -- report: an acquirer's settlement report of a day's pay-ins; statement: a bank's statement of a day
    "kind"        TEXT           NOT NULL,
    -- the acquirer's or the rail's name, as the books spell it
    "name"        TEXT           NOT NULL,
    "date"        DATE           NOT NULL,
    -- snap: fetched over SNAP; csv: uploaded
    "origin"      TEXT           NOT NULL,
    "line_count"  INTEGER        NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "ingested_by" TEXT           NOT NULL,
    CONSTRAINT "recon_sources_kind_check" CHECK ("kind" IN ('report', 'statement')),
    CONSTRAINT "recon_sources_origin_check" CHECK ("origin" IN ('snap', 'csv'))
);
CREATE UNIQUE INDEX "recon_sources_day_key" ON "recon_sources" ("kind", "name", "date");

CREATE TABLE "recon_report_lines" (
    "source_id"        UUID    NOT NULL REFERENCES "recon_sources"("id") ON DELETE CASCADE,
    "line_no"          INTEGER NOT NULL,
    "rrn"              TEXT    NOT NULL,
    "reference_no"     TEXT,
    "batch_id"         TEXT    NOT NULL,
    "gross"            BIGINT  NOT NULL,
    "mdr"              BIGINT  NOT NULL,
    "net"              BIGINT  NOT NULL,
    "transaction_date" DATE,
    "settlement_date"  DATE    NOT NULL,
    PRIMARY KEY ("source_id", "line_no")
);
CREATE INDEX "recon_report_lines_batch_idx" ON "recon_report_lines" ("batch_id");
CREATE INDEX "recon_report_lines_settlement_idx" ON "recon_report_lines" ("settlement_date");

CREATE TABLE "recon_statement_lines" (
    "source_id"        UUID    NOT NULL REFERENCES "recon_sources"("id") ON DELETE CASCADE,
    "line_no"          INTEGER NOT NULL,
    "transaction_id"   TEXT    NOT NULL,
    "type"             TEXT    NOT NULL,
    "amount"           BIGINT  NOT NULL,
    "transaction_date" DATE    NOT NULL,
    "remark"           TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY ("source_id", "line_no"),
    CONSTRAINT "recon_statement_lines_type_check" CHECK ("type" IN ('CREDIT', 'DEBIT')),
    CONSTRAINT "recon_statement_lines_amount_check" CHECK ("amount" > 0)
);

-- One run per day, acquirer and rail: run again, it is updated (its counts and sums as of the last run).
CREATE TABLE "recon_runs" (
    "id"       UUID           NOT NULL PRIMARY KEY,
    "date"     DATE           NOT NULL,
    "acquirer" TEXT           NOT NULL,
    "rail"     TEXT           NOT NULL,
    "summary"  JSONB          NOT NULL,
    "ran_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "ran_by"   TEXT           NOT NULL
);
CREATE UNIQUE INDEX "recon_runs_day_key" ON "recon_runs" ("date", "acquirer", "rail");

-- A break found again (same key) is the same row: its owner and resolution survive a re-run. One no
-- longer found is 'cleared' (kept, with what it was), unless it was resolved.
CREATE TABLE "recon_breaks" (
    "id"              UUID           NOT NULL PRIMARY KEY,
    "run_id"          UUID           NOT NULL REFERENCES "recon_runs"("id"),
    "key"             TEXT           NOT NULL,
    "code"            TEXT           NOT NULL,
    "side"            TEXT           NOT NULL,
    "subject"         TEXT           NOT NULL,
    "reference"       TEXT           NOT NULL,
    "batch_id"        TEXT,
    "expected_amount" BIGINT,
    "actual_amount"   BIGINT,
    "expected_date"   DATE,
    "actual_date"     DATE,
    -- what the break leaves in suspense once its batch is booked (positive: owed to the platform)
    "suspense"        BIGINT         NOT NULL DEFAULT 0,
    "detail"          TEXT           NOT NULL,
    "status"          TEXT           NOT NULL DEFAULT 'open',
    "owner"           TEXT,
    "resolution"      TEXT,
    "resolved_by"     TEXT,
    "resolved_at"     TIMESTAMPTZ(3),
    "first_seen_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "last_seen_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "recon_breaks_code_check" CHECK ("code" IN ('missing_in_report', 'missing_in_statement',
        'missing_in_ledger', 'unexpected', 'amount_differs', 'date_differs', 'duplicate')),
    CONSTRAINT "recon_breaks_side_check" CHECK ("side" IN ('report', 'statement')),
    CONSTRAINT "recon_breaks_status_check" CHECK ("status" IN ('open', 'resolved', 'cleared')),
    CONSTRAINT "recon_breaks_resolved_check"
        CHECK (("status" = 'resolved') = ("resolution" IS NOT NULL AND "resolved_by" IS NOT NULL AND "resolved_at" IS NOT NULL))
);
CREATE UNIQUE INDEX "recon_breaks_run_key" ON "recon_breaks" ("run_id", "key");
CREATE INDEX "recon_breaks_open_idx" ON "recon_breaks" ("status", "first_seen_at") WHERE "status" = 'open';

-- The ledger commands a run wrote to the outbox, once each (command id): a re-run writes none again.
CREATE TABLE "recon_bookings" (
    "command_id" TEXT           NOT NULL PRIMARY KEY,
    "run_id"     UUID           NOT NULL REFERENCES "recon_runs"("id"),
    "kind"       TEXT           NOT NULL,
    "reference"  TEXT           NOT NULL,
    "command"    JSONB          NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
