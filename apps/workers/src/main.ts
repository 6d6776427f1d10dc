import 'reflect-metadata';
import { loadConfig, runService } from '@pay/platform';
import { startWorkers } from './workers.app';
import { workersConfigSchema } from './workers.config';

runService('workers', () => startWorkers(loadConfig(workersConfigSchema)));
