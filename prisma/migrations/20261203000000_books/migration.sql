-- The platform's own books (decision 0049): every ledger event is also a journal entry whose
-- postings (debit positive, credit negative) sum to zero, refused by the database otherwise.
-- Platform entries (payouts sent and confirmed, acquirer settlements, rail fees, adjustments)
-- have no merchant event; a merchant event's entry has the event's id.

-- The chart of accounts, as libs/domain/src/books/chart.ts spells it: the kind of an account
-- code, NULL for a code outside the chart (refused as a posting).
CREATE FUNCTION "account_kind"(code TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN code ~ '^merchant:[1-9][0-9]{0,9}:(available|pending)$' THEN 'liability'
    WHEN code ~ '^acquirer:[a-z0-9][a-z0-9_-]{0,39}:receivable$' THEN 'asset'
    WHEN code ~ '^bank:[a-z0-9][a-z0-9_-]{0,39}:cash$' THEN 'asset'
    WHEN code = 'payouts:payable' THEN 'liability'
    WHEN code ~ '^rail:[a-z0-9][a-z0-9_-]{0,39}:in_transit$' THEN 'liability'
    WHEN code ~ '^revenue:fees:(payin|payout)$' THEN 'revenue'
    WHEN code ~ '^expense:(rail_fees|mdr):[a-z0-9][a-z0-9_-]{0,39}$' THEN 'expense'
    WHEN code = 'expense:adjustments' THEN 'expense'
    WHEN code = 'suspense' THEN 'suspense'
  END
$$;

CREATE TABLE "journal_entries" (
    "id" BIGINT NOT NULL,
    "command_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "merchant_id" INTEGER,
    "memo" JSONB NOT NULL DEFAULT '{}',
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    -- The day of the books the entry belongs to: its day in Asia/Jakarta
    "business_date" DATE GENERATED ALWAYS AS (("occurred_at" AT TIME ZONE 'Asia/Jakarta')::date) STORED,
    CONSTRAINT "journal_entries_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "journal_entries_business_date_idx" ON "journal_entries"("business_date", "id");
-- A merchant event's entry is unique by its event (command id, type and reference are the event's,
-- unique in ledger_events); the ledger's hot path writes one per event, so only the platform's own
-- entries are indexed for their idempotency and lookups (one entry of a type per reference and merchant).
CREATE UNIQUE INDEX "journal_entries_platform_command_id_key" ON "journal_entries"("command_id")
    WHERE "type" NOT IN ('payin.recorded', 'settlement.credited', 'payout.debited', 'payout.refunded', 'payout.reversed', 'balance.adjusted');
CREATE UNIQUE INDEX "journal_entries_platform_type_reference_key" ON "journal_entries"("type", "reference", "merchant_id") NULLS NOT DISTINCT
    WHERE "type" NOT IN ('payin.recorded', 'settlement.credited', 'payout.debited', 'payout.refunded', 'payout.reversed', 'balance.adjusted');

-- A successful payout the beneficiary's bank returned later: a final state after success.
ALTER TABLE "disbursements" DROP CONSTRAINT "disbursements_status_check";
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_status_check"
    CHECK ("status" IN ('funding', 'refused', 'pending', 'success', 'failed', 'reversed'));
ALTER TABLE "disbursements" ADD COLUMN "reversed_at" TIMESTAMPTZ(3);
ALTER TABLE "disbursements" ADD COLUMN "reversal_reason" TEXT;

-- One line per account and entry (the ledger adds an entry's lines of one account up before
-- writing); no primary key: the entry id index is the one the books are read by.
CREATE TABLE "postings" (
    "entry_id" BIGINT NOT NULL,
    "account" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    CONSTRAINT "postings_amount_nonzero" CHECK ("amount" <> 0)
);
CREATE INDEX "postings_entry_id_idx" ON "postings"("entry_id");

-- The books are append-only, like the event store.
CREATE FUNCTION "books_reject_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "journal_entries_no_update_delete" BEFORE UPDATE OR DELETE ON "journal_entries"
    FOR EACH ROW EXECUTE FUNCTION "books_reject_change"();
CREATE TRIGGER "journal_entries_no_truncate" BEFORE TRUNCATE ON "journal_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION "books_reject_change"();
CREATE TRIGGER "postings_no_update_delete" BEFORE UPDATE OR DELETE ON "postings"
    FOR EACH ROW EXECUTE FUNCTION "books_reject_change"();
CREATE TRIGGER "postings_no_truncate" BEFORE TRUNCATE ON "postings"
    FOR EACH STATEMENT EXECUTE FUNCTION "books_reject_change"();

-- Double entry, held by the database: the postings a statement writes sum to zero per entry,
-- each belongs to an entry, and each names an account of the chart. Checked once per statement
-- over its transition table (the ledger writes a batch's entries and postings in one statement),
-- so the check costs one pass over the rows written, one probe per entry and one chart lookup
-- per distinct account, not a trigger call per row.
CREATE FUNCTION "postings_balance_check"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad RECORD;
BEGIN
    SELECT a."account" INTO bad FROM (SELECT DISTINCT n."account" FROM new_postings n) a
     WHERE "account_kind"(a."account") IS NULL LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'posting to %, which is not an account of the chart', bad."account" USING ERRCODE = 'check_violation';
    END IF;
    SELECT g."entry_id", g.total, e."id" IS NULL AS orphan INTO bad
      FROM (SELECT n."entry_id", sum(n."amount") AS total FROM new_postings n GROUP BY n."entry_id") g
      LEFT JOIN "journal_entries" e ON e."id" = g."entry_id"
     WHERE g.total <> 0 OR e."id" IS NULL LIMIT 1;
    IF FOUND AND bad.orphan THEN
        RAISE EXCEPTION 'posting of journal entry % has no entry', bad."entry_id" USING ERRCODE = 'foreign_key_violation';
    ELSIF FOUND THEN
        RAISE EXCEPTION 'journal entry % does not balance: its postings sum to %', bad."entry_id", bad.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER "postings_balance" AFTER INSERT ON "postings"
    REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION "postings_balance_check"();

-- Account balances, a projection of the postings. A ledger batch does not update these rows
-- (the platform's accounts would be one hot row every transaction waits on): it appends what it
-- moved per account to account_deltas, and the ledger folds those into accounts (FOR UPDATE SKIP
-- LOCKED). An account's balance at any instant is its row plus its unfolded deltas
-- (account_balances), exact to the sen.
CREATE TABLE "accounts" (
    "code" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "merchant_id" INTEGER,
    -- debits minus credits of every posting folded so far
    "balance" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("code"),
    CONSTRAINT "accounts_kind_check" CHECK ("kind" = "account_kind"("code"))
);

CREATE TABLE "account_deltas" (
    "id" BIGSERIAL NOT NULL,
    "account" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    CONSTRAINT "account_deltas_pkey" PRIMARY KEY ("id")
);

CREATE VIEW "account_balances" AS
SELECT coalesce(a."code", d."account") AS "code", account_kind(coalesce(a."code", d."account")) AS "kind",
       coalesce(a."balance", 0) + coalesce(d."amount", 0) AS "balance"
  FROM "accounts" a
  FULL JOIN (SELECT "account", sum("amount")::bigint AS "amount" FROM "account_deltas" GROUP BY "account") d ON d."account" = a."code";

-- The history so far, booked as the ledger now books each event (libs/domain/src/books/postings.ts);
-- the audit then checks it (every entry balances, accounts fold, merchant accounts = balances).
-- One statement, so the checks at its end see the entries with their postings. Events already
-- booked are left alone, so the bench's history seeds run this same text after writing their events.
WITH "entries" AS (
  INSERT INTO "journal_entries" ("id", "command_id", "type", "reference", "merchant_id", "occurred_at")
  SELECT "id", "command_id", "type", "reference", "merchant_id", "occurred_at" FROM "ledger_events" e
   WHERE NOT EXISTS (SELECT 1 FROM "journal_entries" j WHERE j."id" = e."id")
)
INSERT INTO "postings" ("entry_id", "account", "amount")
SELECT e."id", l."account", l."amount"
  FROM "ledger_events" e
  LEFT JOIN "ledger_events" d
    ON e."type" = 'payout.refunded' AND d."merchant_id" = e."merchant_id" AND d."type" = 'payout.debited' AND d."reference" = e."reference"
 CROSS JOIN LATERAL (VALUES
    ('merchant:' || e."merchant_id" || ':available', -e."available_delta"),
    ('merchant:' || e."merchant_id" || ':pending', -e."pending_delta"),
    (CASE WHEN e."payload" @> '{"sandbox": true}' THEN 'acquirer:sandbox:receivable' ELSE 'acquirer:qris:receivable' END,
     CASE WHEN e."type" = 'payin.recorded' THEN (e."payload"->>'amount')::bigint ELSE 0 END),
    ('revenue:fees:payin', CASE WHEN e."type" = 'payin.recorded' THEN -(e."payload"->>'fee')::bigint ELSE 0 END),
    ('payouts:payable', CASE e."type" WHEN 'payout.debited' THEN -(e."payload"->>'amount')::bigint
                                       WHEN 'payout.refunded' THEN (d."payload"->>'amount')::bigint ELSE 0 END),
    ('revenue:fees:payout', CASE e."type" WHEN 'payout.debited' THEN -(e."payload"->>'fee')::bigint
                                           WHEN 'payout.refunded' THEN (d."payload"->>'fee')::bigint ELSE 0 END)
  ) AS l("account", "amount")
 WHERE l."amount" <> 0 AND NOT EXISTS (SELECT 1 FROM "journal_entries" j WHERE j."id" = e."id");

-- Payouts the bank had already paid: booked as confirmed (payable -> the bank cash of their rail:
-- the SNAP rail's if a request ever went to a bank for them, else the sandbox's), each with the
-- applied decision the audit pairs it with. Those still pending are confirmed or refunded by the
-- payout service from here on (from payable: they were never booked as sent).
WITH "paid" AS (
  SELECT d."id"::text AS "reference", d."merchant_id", d."amount", coalesce(d."success_at", d."updated_at") AS "at",
         CASE WHEN EXISTS (SELECT 1 FROM "rail_attempts" r WHERE r."partner_reference_no" = d."id"::text) THEN 'snap' ELSE 'sandbox' END AS "rail",
         nextval('ledger_events_id_seq') AS "id"
    FROM "disbursements" d
   WHERE d."status" = 'success'
     AND EXISTS (SELECT 1 FROM "ledger_events" e
                  WHERE e."merchant_id" = d."merchant_id" AND e."type" = 'payout.debited' AND e."reference" = d."id"::text)
     AND NOT EXISTS (SELECT 1 FROM "journal_entries" j
                      WHERE j."type" = 'payout.confirmed' AND j."reference" = d."id"::text AND j."merchant_id" = d."merchant_id")
), "entries" AS (
  INSERT INTO "journal_entries" ("id", "command_id", "type", "reference", "merchant_id", "memo", "occurred_at")
  SELECT "id", 'payout.confirm:' || "reference", 'payout.confirmed', "reference", "merchant_id",
         jsonb_build_object('rail', "rail", 'amount', "amount"::text, 'sentUnbooked', true, 'bookedBy', 'migration'), "at"
    FROM "paid"
), "decided" AS (
  INSERT INTO "ledger_commands" ("command_id", "merchant_id", "type", "outcome", "event_id", "result", "decided_at")
  SELECT 'payout.confirm:' || "reference", "merchant_id", 'payout.confirm', 'applied', NULL,
         jsonb_build_object('outcome', 'applied', 'commandId', 'payout.confirm:' || "reference", 'eventId', "id"::text), "at"
    FROM "paid"
  ON CONFLICT ("command_id") DO NOTHING
)
INSERT INTO "postings" ("entry_id", "account", "amount")
SELECT "id", 'payouts:payable', "amount" FROM "paid"
UNION ALL
SELECT "id", 'bank:' || "rail" || ':cash', -"amount" FROM "paid";

-- Each account is the fold of its postings (less what is still to be folded from account_deltas).
INSERT INTO "accounts" ("code", "kind", "merchant_id", "balance")
SELECT p."account", account_kind(p."account"), (regexp_match(p."account", '^merchant:([0-9]+):'))[1]::int,
       sum(p."amount") - coalesce((SELECT sum(d."amount") FROM "account_deltas" d WHERE d."account" = p."account"), 0)
  FROM "postings" p GROUP BY p."account"
ON CONFLICT ("code") DO UPDATE SET "balance" = EXCLUDED."balance", "updated_at" = CURRENT_TIMESTAMP;
