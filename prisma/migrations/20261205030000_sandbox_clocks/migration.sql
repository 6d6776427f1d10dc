-- Sandbox clocks (issue 45, part 4; docs/merchant-api.md#sandbox-clock): in sandbox mode only, a
-- merchant's time can be moved ahead. Its clock reads greatest(frozen_at, now()): on real time until
-- advanced, then held at frozen_at until real time catches up. While advancing_to is set, the
-- workers walk frozen_at to it, firing at each due instant the merchant's settlements, QR expiries
-- and callback retries (lease_until: the walking worker's lease). No row: real time.
CREATE TABLE "sandbox_clocks" (
    "merchant_id"   INTEGER PRIMARY KEY REFERENCES "merchants"("id"),
    "frozen_at"     TIMESTAMPTZ(3) NOT NULL,
    "advancing_to"  TIMESTAMPTZ(3),
    "lease_until"   TIMESTAMPTZ(3),
    "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "sandbox_clocks_forward_check" CHECK ("advancing_to" IS NULL OR "advancing_to" >= "frozen_at")
);
