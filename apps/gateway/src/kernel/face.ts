import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PgListener } from '@pay/persistence';
import type { Logger } from '@pay/platform';
import type { FastifyInstance } from 'fastify';
import type Redis from 'ioredis';

/** What a face's set-up is given when the app is built (gateway.app.ts). */
export interface FaceContext<Config> {
  app: NestFastifyApplication;
  fastify: FastifyInstance;
  config: Config;
  logger: Logger;
  /** The fail-fast Redis connection */
  redis: Redis;
  /** The process's one LISTEN connection (started once the app is ready) */
  notices: PgListener;
}

/**
 * One audience of the gateway (the merchant API, the dashboard, the console, the ops API, the
 * acquirer, sign-in): its Nest module and what it adds to the Fastify instance besides its
 * controllers. The gateway is built from a list of faces (createGatewayApp), so serving a face
 * from a deployable of its own is a change of main.ts.
 */
export interface GatewayFace<Config> {
  name: string;
  /** Its controllers (imports the kernel and the services it needs) */
  module: Type<unknown>;
  /** onRequest hooks, registered after the method check and before the refusal delay (request order matters) */
  hooks?(context: FaceContext<Config>): void;
  /** Routes outside Nest (Bull Board, a web bundle, the docs page), mounted before the app starts; returns what closes them */
  mount?(context: FaceContext<Config>): Promise<(() => Promise<void>) | void>;
}
