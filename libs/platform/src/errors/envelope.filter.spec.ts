import { STATUS_CODES } from 'node:http';
import type { ArgumentsHost } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLogger } from '../logging/logger';
import { EnvelopeExceptionFilter } from './envelope.filter';

/** Errors raised outside Nest (Fastify's own, a plugin's http-errors) reach the filter through Fastify's error handler. */
describe('EnvelopeExceptionFilter and errors raised by Fastify plugins', () => {
  let fastify: FastifyInstance;
  const lines: Record<string, unknown>[] = [];
  const filter = new EnvelopeExceptionFilter(
    createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) }),
  );
  const upstream = Object.assign(new Error('the bank answered 400'), { statusCode: 400 });
  /** An error as http-errors (which @fastify/send uses) makes one for a status. */
  const createError = (status: number) =>
    Object.assign(new Error(STATUS_CODES[status]), { status, statusCode: status, expose: status < 500 });

  beforeAll(async () => {
    fastify = Fastify();
    fastify.setErrorHandler((err, req, reply) =>
      filter.catch(err, { switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }) } as ArgumentsHost),
    );
    // What @fastify/send raises for a static file.
    fastify.get('/range', async () => Promise.reject(createError(416)));
    fastify.get('/precondition', async () => Promise.reject(createError(412)));
    fastify.get('/forbidden', async () => Promise.reject(createError(403)));
    // An error of another origin that happens to carry a 4xx: not the caller's fault.
    fastify.get('/upstream', async () => Promise.reject(upstream));
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  it.each([
    ['/range', 416, 'Range Not Satisfiable'],
    ['/precondition', 412, 'Precondition Failed'],
    ['/forbidden', 403, 'Forbidden'],
  ])('%s: a plugin client error keeps its status, in the envelope, logged as refused', async (url, status, message) => {
    const res = await fastify.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ logId: expect.any(String), status: false, message, code: 'VALIDATION_ERROR' });
    expect(lines.filter((l) => l.path === url)).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request refused' }),
    ]);
  });

  it('an error of another origin carrying a 4xx is a 500, logged as an error', async () => {
    const res = await fastify.inject({ method: 'GET', url: '/upstream' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ status: false, code: 'INTERNAL_ERROR' });
    expect(lines.filter((l) => l.path === '/upstream')).toEqual([expect.objectContaining({ level: 'error' })]);
  });
});
