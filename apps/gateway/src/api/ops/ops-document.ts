import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { keepPaths } from '../../kernel/openapi/document-paths';
import { ACQUIRER_SECURITY, ADMIN_SECURITY, SNAP_ACQUIRER_SECURITY } from '../../kernel/openapi/ops-api.decorator';

/**
 * The paths of this document. Left out of the internal port's: Bull Board (/ops/queues, HTML
 * pages behind basic auth, not an API of ours), /metrics (Prometheus text), /healthz and /readyz.
 */
export const OPS_PATHS = ['/ops/', '/internal/', '/snap/'] as const;

/**
 * The gateway's internal port as an OpenAPI document: the operators' API (/ops, admin bearer
 * token) and the acquirer's notifications (/internal, signed body; /snap, SNAP's service 52). Committed as
 * docs/ops-openapi.json (npm run openapi:export); relative server, as the merchant document.
 */
export function buildOpsDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Operations and acquirer API')
    .setDescription(
      "The gateway's internal port, never exposed by the ingress: operators' endpoints (onboarding, settings, credentials, settlements, webhooks, dead letters, the ledger audit; the admin CLI's commands over HTTP) behind `Authorization: Bearer <ADMIN_TOKEN>` (absent ADMIN_TOKEN, they answer 404), and the QRIS acquirer's signed notification. Every response, errors included, carries a logId (also the X-Log-Id header), except the SNAP acquirer's notification (/snap/v1.0/qr/qr-mpm-notify), answered in SNAP's envelope.",
    )
    .setVersion('v1')
    .addServer('/', "The gateway's internal port (GATEWAY_INTERNAL_PORT)")
    .addSecurity(ADMIN_SECURITY, {
      type: 'http',
      scheme: 'bearer',
      description: '`Authorization: Bearer <ADMIN_TOKEN>` (or a token of ADMIN_TOKEN_PREVIOUS during a rotation)',
    })
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Acquirer-Signature',
        description:
          't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with ACQUIRER_SECRET>; a t outside ACQUIRER_CLOCK_SKEW_SECONDS is refused',
      },
      ACQUIRER_SECURITY,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-SIGNATURE',
        description:
          'base64 SHA256withRSA of the acquirer (SNAP_ACQUIRER_PUBLIC_KEY_FILE verifies it) over `POST:<path>:<hex sha256 of the body>:<X-TIMESTAMP>`; an X-TIMESTAMP outside ACQUIRER_CLOCK_SKEW_SECONDS is refused',
      },
      SNAP_ACQUIRER_SECURITY,
    )
    .addTag('Merchants', 'Onboarding, activation, rate limits and settlement runs')
    .addTag('Merchant settings', 'Fees, QRIS identity, settlement schedule, IP allowlist, default pay-in callback URL')
    .addTag('Credentials', 'API tokens and the webhook signing secret')
    .addTag('Disbursements', "Payouts the beneficiary's bank returned after success: reverse")
    .addTag('Webhooks', 'Callback deliveries: inspect, resend')
    .addTag('Dead letters', 'Messages no consumer could process: list, replay, resolve')
    .addTag('Ledger', 'The ledger audit')
    .addTag(
      'Dashboard users',
      "The merchant dashboard's and operator console's users: create, set-password links, unlock",
    )
    .addTag('Acquirer', "The QRIS acquirer's payment notifications")
    .build();
  return keepPaths(SwaggerModule.createDocument(app, config), OPS_PATHS);
}
