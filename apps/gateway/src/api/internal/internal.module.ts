import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { ServicesModule } from '../../services/services.module';
import { AcquirerController } from './acquirer.controller';
import { SnapNotifyController } from './snap-notify.controller';

/**
 * The QRIS acquirer's notifications: /internal/acquirer (QRIS_ACQUIRER=self) and
 * /snap/v1.0/qr/qr-mpm-notify (QRIS_ACQUIRER=snap, SNAP's envelope), on the internal port only (GATEWAY_INTERNAL_PORT;
 * refuseInternalRoutesOnPublicPort answers 404 on the public one), documented in
 * docs/ops-openapi.json.
 *
 * Request pipeline: the raw body is kept (rawBody); AcquirerService verifies the HMAC signature
 * over those bytes (ACQUIRER_SECRET, and ACQUIRER_SECRET_PREVIOUS during a rotation), then
 * validates and applies the notification once; the success or error envelope. No guard, no rate
 * limit, no audit log: the signature is the credential.
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [AcquirerController, SnapNotifyController],
})
export class InternalModule {}

export const INTERNAL_FACE: GatewayFace<GatewayConfig> = { name: 'internal', module: InternalModule };
