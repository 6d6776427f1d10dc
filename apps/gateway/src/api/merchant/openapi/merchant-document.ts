import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { TOKEN_HEADER } from '../../../kernel/auth/merchant/merchant-auth.guard';
import { TOKEN_SECURITY } from '../../../kernel/openapi/api-envelope.decorator';
import { DISBURSEMENT_CALLBACKS, PAYIN_CALLBACKS } from './callbacks';
import { keepPaths } from '../../../kernel/openapi/document-paths';
import { DisbursementCallbackSchema, PayinCallbackSchema } from './schemas';

const TRANSFER_PATH = '/api/v1/disbursement/transfer';
const GENERATE_PATH = '/api/v1/payin/qris/generate';
/** The paths of this document; everything else is the internal port's. */
export const MERCHANT_PATHS = ['/api/'] as const;

/**
 * The merchant API's OpenAPI document: the paths of the public port, /api/ (the ops and
 * acquirer paths of the internal port are in ops-document.ts). Served at /docs/openapi.json and committed as
 * docs/openapi.json (npm run openapi:export). The server is relative (`/`): the document is
 * served by the gateway it describes, so clients resolve it against where they fetched it, and
 * the committed file stays the same for every deployment.
 */
export function buildMerchantDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Merchant Pay-in and Disbursement API')
    .setDescription(
      'QRIS pay-in, balance, disbursement and reconciliation. Every response, errors included, carries a logId (also the X-Log-Id header). Amounts are JSON numbers in Rupiah with at most two decimals. A 503 and a 429 are always safe to repeat after Retry-After.',
    )
    .setVersion('v1')
    .addServer('/', 'The gateway that serves this document (its public port)')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: TOKEN_HEADER,
        description: 'Merchant API token (mtk_…), issued by operators',
      },
      TOKEN_SECURITY,
    )
    .addTag('Balance', 'The merchant balance (spec 4.1)')
    .addTag(
      'Disbursement',
      'Payouts to bank and e-wallet accounts (spec 4.2-4.4, 4.7); the final status goes to notifyUrl',
    )
    .addTag('Pay-in', 'QRIS pay-ins (spec 4.5) and the sandbox payer')
    .addTag('Reconciliation', 'The daily reconciliation CSV (spec 4.6)')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [DisbursementCallbackSchema, PayinCallbackSchema],
  });
  const transfer = document.paths[TRANSFER_PATH]?.post;
  if (!transfer) throw new Error(`OpenAPI: ${TRANSFER_PATH} is missing; the notifyUrl callback has nowhere to go`);
  transfer.callbacks = DISBURSEMENT_CALLBACKS;
  const generate = document.paths[GENERATE_PATH]?.post;
  if (!generate) throw new Error(`OpenAPI: ${GENERATE_PATH} is missing; the pay-in callback has nowhere to go`);
  generate.callbacks = PAYIN_CALLBACKS;
  return keepPaths(document, MERCHANT_PATHS);
}
