-- Dead letters, archived from every <topic>.dlq by the workers (group dead-letter-archive), so
-- operators can list, show, replay or resolve them with SQL behind the admin CLI and the ops API,
-- whatever the bus. A DLQ record is archived once: (dlq_topic, dlq_record_id) is unique.
CREATE TABLE "dead_letters" (
    "id"               BIGSERIAL NOT NULL,
    "dlq_topic"        TEXT NOT NULL,
    "dlq_record_id"    TEXT NOT NULL,
    "topic"            TEXT NOT NULL,
    "original_id"      TEXT NOT NULL,
    "consumer_group"   TEXT NOT NULL,
    "key"              TEXT NOT NULL,
    "value"            TEXT NOT NULL,
    "headers"          JSONB NOT NULL DEFAULT '{}',
    "fault"            TEXT NOT NULL,
    "error"            TEXT NOT NULL,
    "delivery_count"   INTEGER NOT NULL,
    "dead_lettered_at" TIMESTAMPTZ(3) NOT NULL,
    "archived_at"      TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    -- open until replayed (a copy went back to the topic through the outbox) or resolved (by hand, with a note)
    "status"           TEXT NOT NULL DEFAULT 'open',
    "replayed_at"      TIMESTAMPTZ(3),
    "replay_outbox_id" BIGINT,
    "resolved_at"      TIMESTAMPTZ(3),
    "resolution_note"  TEXT,
    CONSTRAINT "dead_letters_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dead_letters_status_check" CHECK ("status" IN ('open', 'replayed', 'resolved'))
);
CREATE UNIQUE INDEX "dead_letters_dlq_record_key" ON "dead_letters"("dlq_topic", "dlq_record_id");
CREATE INDEX "dead_letters_open_idx" ON "dead_letters"("topic", "id") WHERE "status" = 'open';
