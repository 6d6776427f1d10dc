-- The gateway keeps tokens that authenticated a moment ago (issue #15) for routes whose own
-- statement checks the token again; it must forget them the moment a token is revoked or
-- deleted, or anything about a merchant changes (status, IP allowlist, fees, rate limits).
-- One notification per statement; identical ones of a transaction coalesce. A token's
-- last-used stamp (written at most once a minute) notifies nothing.
CREATE FUNCTION "merchant_auth_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('merchant_auth_changed', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER "api_tokens_auth_changed" AFTER UPDATE OF "revoked_at", "merchant_id", "token_hash" OR DELETE ON "api_tokens"
    FOR EACH STATEMENT EXECUTE FUNCTION "merchant_auth_notify"();
CREATE TRIGGER "merchants_auth_changed" AFTER UPDATE OR DELETE ON "merchants"
    FOR EACH STATEMENT EXECUTE FUNCTION "merchant_auth_notify"();
