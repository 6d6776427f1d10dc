-- Every step of an approval in the merchant's activity log (issue 44 part 2, docs/payout-approvals.md).
-- The decisions (approved, rejected) are written by the dashboard route that takes them, with the
-- user. The hold and the expiry are taken by no user: the database writes them where they happen,
-- in the same transaction, as actor the payout's or batch's creator (token:<id>, user:<id>) for the
-- hold and `payout-service` for the expiry.
--   payout.held       a single payout debited by the ledger and held (funding -> pending, awaiting)
--   batch.held        a batch recorded awaiting its approval (its rows are held with it, not one by one)
--   payout.approval   { approval: expired } a single payout whose approval never came
--   batch.approval    { approval: expired } once per batch, when its first row is found expired
CREATE FUNCTION record_approval_activity() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  batch RECORD;
BEGIN
  IF TG_TABLE_NAME = 'disbursement_batches' THEN
    INSERT INTO operator_audit_log (actor, merchant_id, action, target, details)
    VALUES (coalesce(NEW.created_by, 'api'), NEW.merchant_id, 'batch.held', 'batch:' || NEW.batch_id,
            jsonb_build_object('batchId', NEW.batch_id, 'rows', NEW.row_count, 'accepted', NEW.accepted_count,
                               'expiresAt', NEW.approval_expires_at));
    RETURN NULL;
  END IF;

  SELECT b.batch_id INTO batch
    FROM disbursement_batch_rows r JOIN disbursement_batches b ON b.id = r.batch_id
   WHERE r.disbursement_id = NEW.id;

  IF NEW.approval = 'awaiting' THEN
    IF batch IS NULL THEN
      INSERT INTO operator_audit_log (actor, merchant_id, action, target, details)
      VALUES (coalesce(NEW.created_by, 'api'), NEW.merchant_id, 'payout.held', 'payout:' || NEW.platform_trx_id,
              jsonb_build_object('merchantTrxId', NEW.merchant_trx_id, 'platformTrxId', NEW.platform_trx_id,
                                 'amount', NEW.amount, 'expiresAt', NEW.approval_expires_at));
    END IF;
  ELSIF batch IS NULL THEN
    INSERT INTO operator_audit_log (actor, merchant_id, action, target, details)
    VALUES ('payout-service', NEW.merchant_id, 'payout.approval', 'payout:' || NEW.platform_trx_id,
            jsonb_build_object('approval', 'expired', 'merchantTrxId', NEW.merchant_trx_id,
                               'platformTrxId', NEW.platform_trx_id, 'note', NULL));
  ELSE
    -- One row for the batch: the first of its rows found expired writes it (the merchant's rows of
    -- the log are indexed by merchant; a batch's rows expire in the same claims).
    INSERT INTO operator_audit_log (actor, merchant_id, action, target, details)
    SELECT 'payout-service', NEW.merchant_id, 'batch.approval', 'batch:' || batch.batch_id,
           jsonb_build_object('approval', 'expired', 'batchId', batch.batch_id, 'note', NULL)
     WHERE NOT EXISTS (SELECT 1 FROM operator_audit_log a
                        WHERE a.merchant_id = NEW.merchant_id AND a.action = 'batch.approval'
                          AND a.target = 'batch:' || batch.batch_id);
  END IF;
  RETURN NULL;
END $$;

-- Held: the ledger's debit moves it out of funding while it awaits approval.
CREATE TRIGGER disbursements_approval_held AFTER UPDATE OF status ON disbursements
  FOR EACH ROW WHEN (OLD.status = 'funding' AND NEW.status = 'pending' AND NEW.approval = 'awaiting')
  EXECUTE FUNCTION record_approval_activity();
-- Expired: the payout service's claim finds its time up.
CREATE TRIGGER disbursements_approval_expired AFTER UPDATE OF approval ON disbursements
  FOR EACH ROW WHEN (OLD.approval = 'awaiting' AND NEW.approval = 'expired')
  EXECUTE FUNCTION record_approval_activity();
CREATE TRIGGER disbursement_batches_approval_held AFTER INSERT ON disbursement_batches
  FOR EACH ROW WHEN (NEW.approval = 'awaiting')
  EXECUTE FUNCTION record_approval_activity();
