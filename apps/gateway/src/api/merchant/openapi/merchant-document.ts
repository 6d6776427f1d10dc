import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { TOKEN_HEADER } from '../../../kernel/auth/merchant/merchant-auth.guard';
import { TOKEN_SECURITY } from '../../../kernel/openapi/api-envelope.decorator';
import { BATCH_CALLBACKS, DISBURSEMENT_CALLBACKS, PAYIN_CALLBACKS } from './callbacks';
import { BatchCompletedCallbackSchema } from './batch-schemas';
import { keepPaths } from '../../../kernel/openapi/document-paths';
import {
  DisbursementCallbackSchema,
  PayinCallbackSchema,
  PayinRefundCallbackSchema,
  SettlementCreditedCallbackSchema,
} from './schemas';

const TRANSFER_PATH = '/api/v1/disbursement/transfer';
const BATCH_PATH = '/api/v1/disbursement/batch';
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
      [
        'QRIS pay-ins, balance, payouts to bank and e-wallet accounts, and the daily reconciliation file.',
        '',
        "**Authentication**: every call sends the merchant API token in the `token` header (not `Authorization`); tokens are issued on the dashboard's Developers page or by operators, and may be limited to IP addresses.",
        '',
        '**Answers**: every response, errors included, is the envelope `{ logId, status, message, data }` or `{ logId, status: false, message, code }` (the codes: docs/merchant-api.md#errors) and carries its logId (also the X-Log-Id header). Amounts are JSON numbers in Rupiah with at most two decimals. A 503 and a 429 are always safe to repeat after Retry-After; the same request again never pays twice.',
        '',
        '**Sandbox**: where SANDBOX_MODE is on, `POST /api/v1/payin/qris/sandbox/pay` pays a code and `POST /api/v1/payin/qris/sandbox/settle` settles paid pay-ins at once; account numbers of the sandbox bank are listed on `accountNo`.',
        '',
        '**Callbacks**: a transfer\'s and a pay-in\'s final status is POSTed to its notifyUrl (see the callbacks of `transfer` and `generateQris`), signed in `X-Callback-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with your webhook secret>`: verify it over the raw body before parsing, refuse a t older than 5 minutes, de-duplicate on the event id.',
        '',
        'The reconciliation path `/api/v1/payin/reconFile` keeps the camelCase of the original specification.',
      ].join('\n'),
    )
    .setVersion('v1')
    .addServer('/', 'The gateway that serves this document (its public port)')
    .addServer('http://localhost:3000', 'The local runner (bash tools/dev/up.sh)')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: TOKEN_HEADER,
        description: 'Merchant API token (mtk_…), issued by operators',
      },
      TOKEN_SECURITY,
    )
    .addTag('Balance', 'The merchant balance')
    .addTag(
      'Disbursement',
      'Payouts to bank and e-wallet accounts (the codes: GET /api/v1/banks); the final status goes to notifyUrl',
    )
    .addTag('Events', "The merchant's event log: every callback event, numbered with no gap, to fetch what was missed")
    .addTag('Pay-in', 'QRIS pay-ins, and in the sandbox the payer and settle-now')
    .addTag('Reconciliation', 'The daily reconciliation CSV')
    .addTag(
      'Sandbox',
      "Sandbox only: the merchant's sandbox clock, moved ahead to fire settlements, QR expiries and callback retries",
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [
      DisbursementCallbackSchema,
      PayinCallbackSchema,
      PayinRefundCallbackSchema,
      BatchCompletedCallbackSchema,
      SettlementCreditedCallbackSchema,
    ],
  });
  const transfer = document.paths[TRANSFER_PATH]?.post;
  if (!transfer) throw new Error(`OpenAPI: ${TRANSFER_PATH} is missing; the notifyUrl callback has nowhere to go`);
  transfer.callbacks = DISBURSEMENT_CALLBACKS;
  const batch = document.paths[BATCH_PATH]?.post;
  if (!batch) throw new Error(`OpenAPI: ${BATCH_PATH} is missing; the batch callbacks have nowhere to go`);
  batch.callbacks = BATCH_CALLBACKS;
  const generate = document.paths[GENERATE_PATH]?.post;
  if (!generate) throw new Error(`OpenAPI: ${GENERATE_PATH} is missing; the pay-in callback has nowhere to go`);
  generate.callbacks = PAYIN_CALLBACKS;
  return keepPaths(document, MERCHANT_PATHS);
}
