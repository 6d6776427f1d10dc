-- The outbox notification names the topics the committing transaction wrote (issue #15): each
-- service's relay wakes only for the topics it relays, and goes straight to that topic's batch
-- instead of first listing every pending topic. Identical notifications of one transaction
-- coalesce, so a multi-row insert of one topic is still one notification.
CREATE OR REPLACE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox_inserted', t.topic) FROM (SELECT DISTINCT topic FROM inserted) t;
    RETURN NULL;
END;
$$;
DROP TRIGGER "outbox_notify_after_insert" ON "outbox";
CREATE TRIGGER "outbox_notify_after_insert" AFTER INSERT ON "outbox"
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION "outbox_notify"();
