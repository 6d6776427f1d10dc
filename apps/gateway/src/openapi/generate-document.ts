import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { GatewayConfig } from '../gateway.config';
import { GatewayModule } from '../gateway.module';
import { buildMerchantDocument } from '../api/merchant/openapi/merchant-document';
import { buildOpsDocument } from '../api/ops/ops-document';

/** Where the document is committed (a typed client is generated from it). */
export const OPENAPI_FILE = 'docs/openapi.json';
/** Where the internal port's document (operators, the acquirer) is committed. */
export const OPS_OPENAPI_FILE = 'docs/ops-openapi.json';

export interface GatewayDocuments {
  merchant: OpenAPIObject;
  ops: OpenAPIObject;
}

/**
 * The documents without a database, Redis or object store: Nest's preview mode builds
 * the module graph without instantiating a provider, which is all the document needs (the
 * routes and their decorators), so the dependencies are never touched.
 */
export async function generateDocuments(): Promise<GatewayDocuments> {
  const unused = {} as never;
  const module = GatewayModule.register({
    prisma: unused,
    pool: unused,
    redis: unused,
    rail: unused,
    store: unused,
    reconProducer: unused,
    notices: unused,
    logger: unused,
    config: {} as GatewayConfig,
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return { merchant: buildMerchantDocument(app), ops: buildOpsDocument(app) };
  } finally {
    await app.close();
  }
}

export async function generateMerchantDocument(): Promise<OpenAPIObject> {
  return (await generateDocuments()).merchant;
}

/** The committed file's exact text. */
export function serializeDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
