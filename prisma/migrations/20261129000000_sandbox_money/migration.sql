-- Sandbox money (issue 39 item 9): the sandbox payer's pay-ins are marked, and the ledger keeps
-- per merchant how much sandbox money (nets) it has received, settled or not, so the payout
-- service never sends that merchant's money over a live rail (docs/decisions/0047).
-- Rows from before carry no mark: they count as not sandbox, as their events do.
-- Both columns have a constant default: added without rewriting either table.
ALTER TABLE "payins" ADD COLUMN "sandbox" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "balances" ADD COLUMN "sandbox_received" BIGINT NOT NULL DEFAULT 0,
    ADD CONSTRAINT "balances_sandbox_received_non_negative" CHECK ("sandbox_received" >= 0);
