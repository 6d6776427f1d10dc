import 'reflect-metadata';
import { loadConfig, runService } from '@pay/platform';
import { startPayout } from './payout.app';
import { payoutConfigSchema } from './payout.config';

runService('payout', () => startPayout(loadConfig(payoutConfigSchema)));
