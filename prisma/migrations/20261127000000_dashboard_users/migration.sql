-- The merchant dashboard's and the operator console's users, their one-time set-password links,
-- their sessions, and the operators' audit log (docs/decisions/0023).

CREATE TABLE "dashboard_users" (
    "id" BIGSERIAL NOT NULL,
    -- Stored lower-cased (the application lower-cases; the check keeps anything else out).
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "merchant_id" INTEGER,
    -- argon2id (PHC string); null until the user sets a password from a link.
    "password_hash" TEXT,
    -- base32; set by totp/setup, in force once totp_enabled_at is set.
    "totp_secret" TEXT,
    "totp_enabled_at" TIMESTAMPTZ(3),
    "failed_sign_ins" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dashboard_users_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "dashboard_users_role_check" CHECK ("role" IN ('merchant', 'operator')),
    CONSTRAINT "dashboard_users_merchant_iff_merchant_role" CHECK (("role" = 'merchant') = ("merchant_id" IS NOT NULL)),
    CONSTRAINT "dashboard_users_email_lower_case" CHECK ("email" = lower("email") AND length("email") BETWEEN 3 AND 254),
    CONSTRAINT "dashboard_users_failed_sign_ins_check" CHECK ("failed_sign_ins" >= 0),
    CONSTRAINT "dashboard_users_totp_enabled_needs_secret" CHECK ("totp_enabled_at" IS NULL OR "totp_secret" IS NOT NULL)
);
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users" ("email");
CREATE INDEX "dashboard_users_merchant_id_idx" ON "dashboard_users" ("merchant_id");

-- A link's token is 256 random bits: only its SHA-256 is stored. Used once, valid 72 h.
CREATE TABLE "dashboard_password_links" (
    "token_hash" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "dashboard_password_links_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "dashboard_password_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "dashboard_password_links_user_id_idx" ON "dashboard_password_links" ("user_id");

-- A session's cookie value is 256 random bits: only its SHA-256 is stored.
CREATE TABLE "dashboard_sessions" (
    "id_hash" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id_hash"),
    CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "dashboard_sessions_user_id_idx" ON "dashboard_sessions" ("user_id");

-- One row per console action that changed something.
CREATE TABLE "operator_audit_log" (
    "id" BIGSERIAL NOT NULL,
    "operator_user_id" BIGINT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "log_id" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "operator_audit_log_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "operator_audit_log_operator_user_id_fkey" FOREIGN KEY ("operator_user_id") REFERENCES "dashboard_users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "operator_audit_log_at_idx" ON "operator_audit_log" ("at" DESC);
