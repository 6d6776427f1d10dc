-- Every callback delivery is now written in the transaction of the status it reports (pay-ins by
-- the gateway and the expiry scan; disbursements by the payout service, issue #15), and the
-- workers' dispatcher claims due deliveries straight from this table: wake it when a transaction
-- that wrote any delivery commits, and when an operator resends one, rather than at its
-- safety-net round. One notification per transaction (identical payloads coalesce); a statement
-- that wrote no row (ON CONFLICT DO NOTHING) notifies nothing.
DROP TRIGGER "webhook_delivery_notify_after_insert" ON "webhook_deliveries";
CREATE OR REPLACE FUNCTION "webhook_delivery_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Statement level (inserts): only if the statement wrote a row. The inner IF is planned only
    -- when reached, so the row-level trigger (resends), which has no transition table, never plans it.
    IF TG_LEVEL = 'STATEMENT' THEN
        IF NOT EXISTS (SELECT 1 FROM inserted) THEN
            RETURN NULL;
        END IF;
    END IF;
    PERFORM pg_notify('webhook_delivery_inserted', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER "webhook_delivery_notify_after_insert" AFTER INSERT ON "webhook_deliveries"
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_delivery_notify"();
CREATE TRIGGER "webhook_delivery_notify_after_resend" AFTER UPDATE OF "resend_count" ON "webhook_deliveries"
    FOR EACH ROW WHEN (NEW."resend_count" IS DISTINCT FROM OLD."resend_count")
    EXECUTE FUNCTION "webhook_delivery_notify"();
