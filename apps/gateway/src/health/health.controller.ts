import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type ReadinessCheck, runReadiness } from '@pay/platform';
import type { Response } from 'express';
import type { Registry } from 'prom-client';

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/** Liveness, readiness and Prometheus metrics for Kubernetes; not part of the merchant API. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {}

  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res() res: Response): Promise<void> {
    const report = await runReadiness(this.checks);
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  }

  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    res.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
