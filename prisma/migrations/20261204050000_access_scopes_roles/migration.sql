-- Scoped API keys and dashboard roles (issue 45 part 1, docs/access.md; the names are
-- libs/domain/src/access/access.ts's API_SCOPES and MERCHANT_ROLES).

-- Each token has scopes: at least one, each known. Existing tokens, and tokens issued without
-- choosing, have every scope (full access, as before).
ALTER TABLE "api_tokens" ADD COLUMN "scopes" TEXT[] NOT NULL
    DEFAULT ARRAY['balance:read', 'payins:read', 'payins:write', 'payouts:read', 'payouts:write', 'payouts:approve', 'refunds:write', 'reports:read']::TEXT[];
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_scopes_check" CHECK (
    cardinality("scopes") >= 1
    AND "scopes" <@ ARRAY['balance:read', 'payins:read', 'payins:write', 'payouts:read', 'payouts:write', 'payouts:approve', 'refunds:write', 'reports:read']::TEXT[]
);

-- Each merchant user has one role; operators none. Existing merchant users are owners, and a
-- merchant user inserted without one is an owner (full access, as before).
ALTER TABLE "dashboard_users" ADD COLUMN "merchant_role" TEXT;
UPDATE "dashboard_users" SET "merchant_role" = 'owner' WHERE "role" = 'merchant';

CREATE FUNCTION dashboard_users_default_merchant_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."role" = 'merchant' AND NEW."merchant_role" IS NULL THEN
        NEW."merchant_role" := 'owner';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER dashboard_users_default_merchant_role BEFORE INSERT ON "dashboard_users"
    FOR EACH ROW EXECUTE FUNCTION dashboard_users_default_merchant_role();

ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_merchant_role_check" CHECK (
    ("role" = 'merchant') = ("merchant_role" IS NOT NULL)
    AND ("merchant_role" IS NULL OR "merchant_role" IN ('owner', 'developer', 'finance', 'viewer'))
);
