-- A TOTP code is used once (docs/decisions/0023): the time step (unix seconds / 30) of the last
-- code accepted for the user. Sign-in, totp/enable and totp/disable accept a code only when its
-- step is later than this one, in one conditional UPDATE, so a code seen once (or sent twice at
-- the same moment) does not work again. Null: no code accepted since the secret was set.
ALTER TABLE "dashboard_users" ADD COLUMN "totp_last_step" BIGINT;
