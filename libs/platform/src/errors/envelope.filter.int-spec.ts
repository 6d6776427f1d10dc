import type { ArgumentsHost } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'pg';
import { createLogger } from '../logging/logger';
import { EnvelopeExceptionFilter } from './envelope.filter';

/**
 * The filter's safety net against real PostgreSQL errors: a refusal no handler mapped is the
 * client's 409 or 400, never a 500. Each route runs a statement the server refuses and hands the
 * error to the filter as Nest would.
 */
describe('EnvelopeExceptionFilter and database refusals (real Postgres)', () => {
  let pool: Pool;
  let fastify: FastifyInstance;
  const filter = new EnvelopeExceptionFilter(createLogger('test', 'fatal'));

  beforeAll(async () => {
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    fastify = Fastify();
    const refused = (sql: string, params: unknown[]) => async (req: unknown, reply: unknown) => {
      try {
        await pool.query(sql, params);
      } catch (err) {
        filter.catch(err, {
          switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }),
        } as unknown as ArgumentsHost);
      }
    };
    fastify.post(
      '/unique',
      refused('CREATE TEMP TABLE IF NOT EXISTS u (k int UNIQUE); INSERT INTO u VALUES (1), (1)', []),
    );
    fastify.post('/nul', refused('SELECT $1::text', ['a\u0000b']));
    fastify.post('/bytes', refused("SELECT convert_from('\\xff'::bytea, 'UTF8')", []));
    await fastify.ready();
  });
  afterAll(async () => {
    await fastify.close();
    await pool.end();
  });

  it('a taken unique key answers 409 CONFLICT', async () => {
    const res = await fastify.inject({ method: 'POST', url: '/unique' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: false,
      code: 'CONFLICT',
      message: 'The request conflicts with an existing record',
    });
  });

  it.each(['/nul', '/bytes'])('text PostgreSQL cannot store (%s) answers 400 VALIDATION_ERROR', async (url) => {
    const res = await fastify.inject({ method: 'POST', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
  });
});
