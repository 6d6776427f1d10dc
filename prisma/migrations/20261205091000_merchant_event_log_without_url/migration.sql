-- The merchant event log (issue 45, part 2): an event with no callback URL is logged too. Its
-- producer writes the callback as any other with url '' (no URL); the trigger numbers and logs the
-- event, then drops the row (a BEFORE trigger returning NULL): no delivery is ever attempted.
CREATE OR REPLACE FUNCTION webhook_deliveries_record_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.body := record_merchant_event(NEW.merchant_id, NEW.event_id, NEW.event_type, NEW.body);
  IF NEW.url = '' THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END $$;
