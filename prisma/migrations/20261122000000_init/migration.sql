-- Merchants, API tokens, the ledger event store, its projections and the outbox.
-- Money is BIGINT minor units (1/100 Rupiah).

CREATE TABLE "merchants" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "payin_fee_pct_milli" INTEGER NOT NULL DEFAULT 700,
    "payin_fee_fixed" BIGINT NOT NULL DEFAULT 15000,
    "payout_fee_flat" BIGINT NOT NULL DEFAULT 250000,
    "ip_allowlist_enabled" BOOLEAN NOT NULL DEFAULT false,
    "ip_allowlist" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "merchants_name_not_blank" CHECK (length(btrim("name")) > 0),
    CONSTRAINT "merchants_fees_non_negative" CHECK ("payin_fee_pct_milli" BETWEEN 0 AND 100000 AND "payin_fee_fixed" >= 0 AND "payout_fee_flat" >= 0)
);

CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");
CREATE INDEX "api_tokens_merchant_id_idx" ON "api_tokens"("merchant_id");
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "ledger_events" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "seq" BIGINT NOT NULL,
    "command_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "available_delta" BIGINT NOT NULL,
    "pending_delta" BIGINT NOT NULL,
    "payload" JSONB NOT NULL,
    "log_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_events_seq_positive" CHECK ("seq" > 0)
);
CREATE UNIQUE INDEX "ledger_events_command_id_key" ON "ledger_events"("command_id");
CREATE UNIQUE INDEX "ledger_events_merchant_id_seq_key" ON "ledger_events"("merchant_id", "seq");
CREATE UNIQUE INDEX "ledger_events_merchant_id_type_reference_key" ON "ledger_events"("merchant_id", "type", "reference");
ALTER TABLE "ledger_events" ADD CONSTRAINT "ledger_events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The event store is append-only; the database itself refuses to rewrite history.
CREATE FUNCTION "ledger_events_reject_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "ledger_events_no_update_delete" BEFORE UPDATE OR DELETE ON "ledger_events"
    FOR EACH ROW EXECUTE FUNCTION "ledger_events_reject_change"();
CREATE TRIGGER "ledger_events_no_truncate" BEFORE TRUNCATE ON "ledger_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "ledger_events_reject_change"();

CREATE TABLE "ledger_commands" (
    "command_id" TEXT NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "event_id" BIGINT,
    "result" JSONB NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_commands_pkey" PRIMARY KEY ("command_id"),
    CONSTRAINT "ledger_commands_outcome_check" CHECK ("outcome" IN ('applied', 'rejected'))
);
CREATE INDEX "ledger_commands_merchant_id_idx" ON "ledger_commands"("merchant_id");

CREATE TABLE "balances" (
    "merchant_id" INTEGER NOT NULL,
    "available" BIGINT NOT NULL DEFAULT 0,
    "pending" BIGINT NOT NULL DEFAULT 0,
    "last_seq" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "balances_pkey" PRIMARY KEY ("merchant_id"),
    -- Defence in depth behind the ledger's own check: never overdraw.
    CONSTRAINT "balances_available_non_negative" CHECK ("available" >= 0),
    CONSTRAINT "balances_pending_non_negative" CHECK ("pending" >= 0)
);
ALTER TABLE "balances" ADD CONSTRAINT "balances_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "settlements" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "payin_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "settlements_merchant_id_idx" ON "settlements"("merchant_id");

CREATE TABLE "payins" (
    "id" UUID NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "merchant_trx_id" TEXT NOT NULL,
    "platform_trx_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "fee_pct_milli" INTEGER NOT NULL,
    "fee_fixed" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "rrn" TEXT,
    "success_at" TIMESTAMPTZ(3),
    "ledger_event_id" BIGINT,
    "settlement_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payins_amounts_check" CHECK ("amount" > 0 AND "fee" >= 0 AND "fee" <= "amount")
);
CREATE UNIQUE INDEX "payins_platform_trx_id_key" ON "payins"("platform_trx_id");
CREATE UNIQUE INDEX "payins_merchant_id_merchant_trx_id_key" ON "payins"("merchant_id", "merchant_trx_id");
CREATE INDEX "payins_merchant_id_status_settlement_id_idx" ON "payins"("merchant_id", "status", "settlement_id");
ALTER TABLE "payins" ADD CONSTRAINT "payins_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "payins" ADD CONSTRAINT "payins_settlement_id_fkey" FOREIGN KEY ("settlement_id") REFERENCES "settlements"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("id") WHERE "published_at" IS NULL;
