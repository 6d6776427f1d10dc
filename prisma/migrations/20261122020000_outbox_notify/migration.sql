-- Wake outbox relays as soon as a transaction that wrote outbox rows commits (NOTIFY is
-- delivered at commit, once per transaction and channel), instead of waiting for their poll.
CREATE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox_inserted', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER "outbox_notify_after_insert" AFTER INSERT ON "outbox"
    FOR EACH STATEMENT EXECUTE FUNCTION "outbox_notify"();
