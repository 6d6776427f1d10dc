-- Changes made through the ops API (the admin token) and the admin CLI are audited too. Neither
-- has a dashboard user: such a row names its actor instead ('ops-api', 'cli:<os user>@<host>').
ALTER TABLE "operator_audit_log" ALTER COLUMN "operator_user_id" DROP NOT NULL;
ALTER TABLE "operator_audit_log" ADD COLUMN "actor" TEXT;
ALTER TABLE "operator_audit_log" ADD CONSTRAINT "operator_audit_log_actor_check"
  CHECK ("operator_user_id" IS NOT NULL OR "actor" IS NOT NULL);
