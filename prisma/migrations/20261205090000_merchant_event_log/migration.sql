-- The merchant event log (issue 45, part 2; docs/merchant-api.md#event-log): every callback event
-- a merchant can receive, numbered 1, 2, 3... per merchant with no gap. The number is taken from the
-- merchant's counter row in the transaction that writes the callback (the trigger below on
-- webhook_deliveries, or record_merchant_event for an event with no callback URL): the counter's row
-- lock orders concurrent writers, and a rolled-back transaction rolls its increment back with it.
CREATE TABLE "merchant_event_counters" (
    "merchant_id"   INTEGER PRIMARY KEY REFERENCES "merchants"("id"),
    "last_sequence" BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE "merchant_events" (
    "merchant_id" INTEGER NOT NULL REFERENCES "merchants"("id"),
    "sequence"    BIGINT NOT NULL,
    "event_id"    TEXT NOT NULL,
    "event_type"  TEXT NOT NULL,
    -- The callback's body exactly as delivered (with its "sequence"), signed when read
    "body"        TEXT NOT NULL,
    "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    PRIMARY KEY ("merchant_id", "sequence"),
    CONSTRAINT "merchant_events_event_id_key" UNIQUE ("event_id"),
    CONSTRAINT "merchant_events_sequence_check" CHECK ("sequence" >= 1)
);

-- The log is append-only.
CREATE FUNCTION merchant_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'merchant_events is append-only';
END $$;
CREATE TRIGGER merchant_events_no_update BEFORE UPDATE OR DELETE ON "merchant_events"
  FOR EACH ROW EXECUTE FUNCTION merchant_events_append_only();

-- Records the event (once per event id) and returns its body with "sequence" added as the last
-- field (the body's bytes otherwise unchanged). An event id already recorded returns the recorded
-- body and takes no number. The counter row is locked before the event id is looked up, so two
-- writers of the same event id cannot both number it.
CREATE FUNCTION record_merchant_event(p_merchant_id INTEGER, p_event_id TEXT, p_event_type TEXT, p_body TEXT)
RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  seq BIGINT;
  recorded TEXT;
  trimmed TEXT := rtrim(p_body);
  numbered TEXT;
BEGIN
  INSERT INTO merchant_event_counters (merchant_id) VALUES (p_merchant_id) ON CONFLICT (merchant_id) DO NOTHING;
  PERFORM 1 FROM merchant_event_counters WHERE merchant_id = p_merchant_id FOR UPDATE;
  SELECT body INTO recorded FROM merchant_events WHERE event_id = p_event_id;
  IF FOUND THEN
    RETURN recorded;
  END IF;
  UPDATE merchant_event_counters SET last_sequence = last_sequence + 1
   WHERE merchant_id = p_merchant_id RETURNING last_sequence INTO seq;
  IF left(trimmed, 1) = '{' AND right(trimmed, 1) = '}' THEN
    numbered := left(trimmed, length(trimmed) - 1)
      || CASE WHEN btrim(substr(trimmed, 2, length(trimmed) - 2)) = '' THEN '' ELSE ',' END
      || '"sequence":' || seq || '}';
  ELSE
    numbered := p_body;
  END IF;
  INSERT INTO merchant_events (merchant_id, sequence, event_id, event_type, body)
  VALUES (p_merchant_id, seq, p_event_id, p_event_type, numbered);
  RETURN numbered;
END $$;

-- Every callback written is an event of the log, numbered in the same transaction.
CREATE FUNCTION webhook_deliveries_record_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.body := record_merchant_event(NEW.merchant_id, NEW.event_id, NEW.event_type, NEW.body);
  RETURN NEW;
END $$;
CREATE TRIGGER webhook_deliveries_record_event BEFORE INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_record_event();
