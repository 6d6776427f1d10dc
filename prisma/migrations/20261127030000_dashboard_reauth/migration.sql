-- Step-up for sensitive dashboard and console actions (docs/decisions/0023, "Confirming the
-- password"): when the session's user last proved its password (and TOTP code, when on). Set at
-- sign-in and by POST .../api/session/confirm; the actions marked @RequiresRecentAuth() want it
-- within the last 10 minutes. A session signed in before this column existed counts from its
-- creation, which is when its password was proved.
ALTER TABLE "dashboard_sessions" ADD COLUMN "authenticated_at" TIMESTAMPTZ;
UPDATE "dashboard_sessions" SET "authenticated_at" = "created_at";
ALTER TABLE "dashboard_sessions" ALTER COLUMN "authenticated_at" SET NOT NULL;
