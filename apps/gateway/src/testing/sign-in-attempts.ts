import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';

/** What a client can tell of an answer: status, body without its logId, headers without the per-request ones. */
export interface AnswerShape {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const PER_REQUEST_HEADERS = new Set(['date', 'x-log-id', 'connection', 'keep-alive']);

export function shapeOf(res: request.Response): AnswerShape {
  const { logId: _logId, ...body } = res.body as Record<string, unknown>;
  const headers = Object.fromEntries(
    Object.entries(res.headers as Record<string, string>).filter(([name]) => !PER_REQUEST_HEADERS.has(name)),
  );
  return { status: res.status, body, headers };
}

/** A sign-in attempt from a client address (the gateway trusts X-Forwarded-For from loopback in these specs). */
export function signInFrom(
  server: Server,
  path: '/dashboard/api/session' | '/console/api/session',
  address: string,
  body: { email: string; password: string; totp?: string },
): request.Test {
  return request(server).post(path).set('x-forwarded-for', address).send(body);
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none yet). */
export function metricValue(exposition: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name) || !/[ {]/.test(line.charAt(name.length))) continue;
    const found = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client address of its own (a random /64 of 2001:db8::/32, the documentation range): no other spec shares its budget. */
export const freshAddress = (): string =>
  `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::7`;
