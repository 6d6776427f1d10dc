import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { GatewayConfig } from '../gateway.config';
import { GatewayModule } from '../gateway.module';
import { buildMerchantDocument } from './merchant-document';

/** Where the document is committed (a typed client is generated from it). */
export const OPENAPI_FILE = 'docs/openapi.json';

/**
 * The merchant document without a database, Redis or object store: Nest's preview mode builds
 * the module graph without instantiating a provider, which is all the document needs (the
 * routes and their decorators), so the dependencies are never touched.
 */
export async function generateMerchantDocument(): Promise<OpenAPIObject> {
  const unused = {} as never;
  const module = GatewayModule.register({ prisma: unused, pool: unused, redis: unused, rail: unused, store: unused, reconProducer: unused, logger: unused, config: {} as GatewayConfig });
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    return buildMerchantDocument(app);
  } finally {
    await app.close();
  }
}

/** The committed file's exact text. */
export function serializeDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
