-- The dashboard's search finds pay-ins and payouts whose merchantTrxId starts with what was typed.
-- The database's collation (C.UTF-8, or a locale's) does not order text byte by byte, so a btree
-- index under it cannot answer a prefix; under "C" a prefix p is the range [p, p || E'\x7F')
-- (merchantTrxIds are printable ASCII, 0x21 to 0x7E), an index range scan, prepared or not.
CREATE INDEX "payins_merchant_id_trx_id_c_idx" ON "payins" ("merchant_id", "merchant_trx_id" COLLATE "C");
CREATE INDEX "disbursements_merchant_id_trx_id_c_idx" ON "disbursements" ("merchant_id", "merchant_trx_id" COLLATE "C");
