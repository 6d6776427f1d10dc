import 'reflect-metadata';
import { loadConfig, runService } from '@pay/platform';
import { startLedger } from './ledger.app';
import { ledgerConfigSchema } from './ledger.config';

runService('ledger', () => startLedger(loadConfig(ledgerConfigSchema)));
