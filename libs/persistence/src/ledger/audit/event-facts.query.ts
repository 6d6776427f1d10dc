import type { TransactionClient } from '../../client/prisma';
import type { BreachRow } from './breach';
import { MERCHANT_EVENT_TYPES, MERCHANT_EVENT_TYPES_TEXT, PLATFORM_COMMAND_TYPES } from './event-types';

/**
 * Events against the ledger's decisions, for the merchants whose digests disagreed. The
 * ledger writes an event and its `applied` decision in one statement, so each event has
 * exactly one applied decision of the same command id pointing at it, every applied decision
 * points at an event that exists, and a rejected one at none. An event of a type no handler
 * writes has no source at all.
 */
export function eventBreaches(tx: TransactionClient, merchantIds: number[]): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH c AS (
      SELECT command_id, merchant_id, outcome, event_id FROM ledger_commands
       WHERE merchant_id = ANY(${merchantIds}::int[]) AND (outcome = 'applied' OR event_id IS NOT NULL)
         AND type <> ALL(${PLATFORM_COMMAND_TYPES}::text[]) AND NOT (type = 'books.adjust' AND event_id IS NULL AND outcome = 'applied')
    ), e AS (
      SELECT id, merchant_id, command_id, type FROM ledger_events WHERE merchant_id = ANY(${merchantIds}::int[])
    ), k AS (
      SELECT c.command_id AS c_id, c.merchant_id AS c_merchant, c.outcome, c.event_id, e.id AS e_id, e.merchant_id AS e_merchant, e.command_id AS e_command, e.type,
             (SELECT x.merchant_id FROM ledger_events x WHERE e.id IS NULL AND x.id = c.event_id) AS elsewhere,
             (SELECT y.outcome || ' pointing at ' || COALESCE('event ' || y.event_id, 'no event')
                FROM ledger_commands y WHERE c.command_id IS NULL AND y.command_id = e.command_id) AS decided
        FROM c FULL JOIN e ON e.id = c.event_id
       WHERE c.command_id IS NULL OR e.id IS NULL OR c.outcome <> 'applied' OR c.command_id <> e.command_id OR c.merchant_id <> e.merchant_id
          OR e.type <> ALL(${MERCHANT_EVENT_TYPES}::text[])
    )
    SELECT r.* FROM k CROSS JOIN LATERAL (VALUES
      ('decision.event_missing', 'ledger_commands', k.c_id, k.c_merchant,
       'event ' || k.event_id || ' of merchant ' || k.c_merchant, COALESCE('that event under merchant ' || k.elsewhere, 'no such event'),
       k.c_id IS NOT NULL AND k.outcome = 'applied' AND k.e_id IS NULL, false),
      ('decision.mismatch', 'ledger_commands', k.c_id, k.c_merchant,
       CASE WHEN k.outcome = 'applied' THEN 'event ' || k.event_id || ' of command ' || k.c_id || ', merchant ' || k.c_merchant
            ELSE 'no event (the command was ' || k.outcome || ')' END,
       'event ' || k.event_id || COALESCE(' of command ' || k.e_command || ', merchant ' || k.e_merchant, ''),
       k.c_id IS NOT NULL AND (k.outcome <> 'applied' OR k.e_id IS NOT NULL AND (k.c_id <> k.e_command OR k.c_merchant <> k.e_merchant)), false),
      ('event.undecided', 'ledger_events', k.e_id::text, k.e_merchant,
       'an applied decision of command ' || k.e_command || ' pointing at this event', COALESCE(k.decided, 'no decision'),
       k.e_id IS NOT NULL AND k.c_id IS NULL, false),
      ('event.unknown_type', 'ledger_events', k.e_id::text, k.e_merchant,
       ${MERCHANT_EVENT_TYPES_TEXT}, 'type ' || k.type,
       k.e_id IS NOT NULL AND k.type <> ALL(${MERCHANT_EVENT_TYPES}::text[]), false)
    ) AS r("check", tbl, id, merchant_id, expected, found, bad, in_flight)
    WHERE r.bad`;
}
