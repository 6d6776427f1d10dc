/* eslint-disable @nx/enforce-module-boundaries -- the reference documents each app's own schema; this tool is no part of a service */
import { gatewayConfigSchema } from '../../apps/gateway/src/gateway.config';
import { ledgerConfigSchema } from '../../apps/ledger/src/ledger.config';
import { payoutConfigSchema } from '../../apps/payout/src/payout.config';
import { workersConfigSchema } from '../../apps/workers/src/workers.config';
/* eslint-enable @nx/enforce-module-boundaries */
import type { z } from 'zod';
import { adminConfigSchema } from '../admin/admin.config';

export interface Service {
  name: string;
  /** What the process is, in a line */
  summary: string;
  schema: z.ZodType;
}

/** Every process that reads settings, in the order the reference lists them. */
export const SERVICES: Service[] = [
  {
    name: 'gateway',
    summary:
      "The merchant API, the dashboard and console, the acquirer's notifications and the ops API (`apps/gateway/src/gateway.config.ts`).",
    schema: gatewayConfigSchema,
  },
  {
    name: 'ledger',
    summary: 'Applies the ledger commands and relays its outbox (`apps/ledger/src/ledger.config.ts`).',
    schema: ledgerConfigSchema,
  },
  {
    name: 'payout',
    summary: 'Takes debited disbursements to the bank rail (`apps/payout/src/payout.config.ts`).',
    schema: payoutConfigSchema,
  },
  {
    name: 'workers',
    summary:
      'Callbacks, the pay-in expiry scan, settlements, recon exports, the dead-letter archive (`apps/workers/src/workers.config.ts`).',
    schema: workersConfigSchema,
  },
  {
    name: 'admin CLI',
    summary: "The operators' command line, `npm run admin` (`tools/admin/admin.config.ts`).",
    schema: adminConfigSchema,
  },
];

/** The shared sections (configSection), in the order the reference lists them. */
export const SECTIONS: Record<string, { title: string; summary: string }> = {
  service: { title: 'Every service', summary: 'The environment, the log level and the deadline of a stop.' },
  database: { title: 'Database', summary: 'PostgreSQL, the source of truth (`libs/persistence`).' },
  redis: {
    title: 'Redis',
    summary: 'BullMQ, the rate limits and, by default, the Redis Streams bus (`libs/platform`).',
  },
  queues: { title: 'Queues', summary: 'BullMQ (`libs/platform`).' },
  ops: {
    title: 'Ops port',
    summary: '`/healthz`, `/readyz` and `/metrics` of the services without an HTTP API (`libs/platform`).',
  },
  bus: { title: 'Bus', summary: 'Redis Streams or Kafka, between the services (`libs/bus`).' },
  outbox: { title: 'Outbox relay', summary: 'Each of these services relays its outbox to the bus (`libs/bus`).' },
  rail: {
    title: 'Bank rail',
    summary:
      'Account lookups and transfers at the bank (`libs/bank-rail`). A rail is live (moves real money) when its provider speaks to a bank and `RAIL_SIMULATOR` is not `true`; the in-process sandbox rail never is. The gateway refuses `SANDBOX_MODE` beside a live rail, and the payout service sends no sandbox money over one (decision 0047).',
  },
  snap: {
    title: 'SNAP provider',
    summary:
      "The bank (or PJP) spoken to over Bank Indonesia's SNAP (`libs/snap`, `libs/bank-rail/src/snap`; docs/rails.md says how to connect one): the payout rail with `RAIL_PROVIDER=snap`, and the QRIS acquirer with `QRIS_ACQUIRER=snap` unless `SNAP_ACQUIRER_*` names another.",
  },
  acquirer: {
    title: 'QRIS acquirer',
    summary:
      "Who generates QRIS codes and reports their payments (`libs/bank-rail`): ourselves, or an acquirer over SNAP, which is the rail's SNAP provider unless a `SNAP_ACQUIRER_*` setting says otherwise. The gateway generates codes and takes the notifications; the workers ask the acquirer about codes due to expire.",
  },
  storage: { title: 'Object storage', summary: 'The recon files, in S3 or MinIO (`libs/platform`).' },
  webhooks: { title: 'Callbacks', summary: "Where merchants' callback URLs may point (`libs/platform`)." },
};
