import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type ReadinessCheck, runReadiness } from '@pay/platform';
import type { FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';
import { METRICS_REGISTRY, READINESS_CHECKS } from '../../gateway.tokens';

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
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const report = await runReadiness(this.checks);
    void reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }

  @Get('metrics')
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    void reply.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
