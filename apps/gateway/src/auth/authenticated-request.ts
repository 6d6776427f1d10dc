import type { AuthenticatedMerchant } from '@pay/persistence';
import type { Request } from 'express';

export type AuthenticatedRequest = Request & { merchant: AuthenticatedMerchant };
