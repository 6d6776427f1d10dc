import type { AuthenticatedMerchant } from '@pay/persistence';
import type { FastifyRequest } from 'fastify';

export type AuthenticatedRequest = FastifyRequest & { merchant: AuthenticatedMerchant };
