import { getSchemaPath } from '@nestjs/swagger';
import type { CallbacksObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BatchCompletedCallbackSchema } from './batch-schemas';
import {
  DisbursementCallbackSchema,
  PayinCallbackSchema,
  PayinRefundCallbackSchema,
  SettlementCreditedCallbackSchema,
} from './schemas';

/** The headers the workers send with every callback (apps/workers/src/webhooks/webhook-delivery.service.ts). */
function callbackHeaders(types: string[], exampleId: string): ParameterObject[] {
  return [
    {
      name: 'X-Callback-Event-Id',
      in: 'header',
      required: true,
      description: 'The event id (same as the body id); stable across retries and resends',
      schema: { type: 'string' },
      example: exampleId,
    },
    {
      name: 'X-Callback-Event-Type',
      in: 'header',
      required: true,
      description: types.join(', '),
      schema: { type: 'string', enum: types },
    },
    {
      name: 'X-Callback-Timestamp',
      in: 'header',
      required: true,
      description: 'Unix seconds the request was signed at',
      schema: { type: 'integer' },
      example: 1795865465,
    },
    {
      name: 'X-Callback-Attempt',
      in: 'header',
      required: true,
      description: 'Delivery attempt, from 1',
      schema: { type: 'integer', minimum: 1 },
      example: 1,
    },
    {
      name: 'X-Callback-Signature',
      in: 'header',
      required: true,
      description:
        't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with your webhook secret>; one v1= per valid secret during a rotation. Verify it over the raw body and refuse a t older than 5 minutes.',
      schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
      example: 't=1795865465,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    },
  ];
}

const DELIVERY =
  'At-least-once delivery (de-duplicate on id). Answer 2xx within 10 s; no answer, 408, 429 or 5xx is retried (30 s, 2 min, 10 min, … about 24 h), a 3xx or another 4xx is final.';

function callback(
  name: string,
  operationId: string,
  summary: string,
  description: string,
  schema: string,
  types: string[],
  exampleId: string,
): CallbacksObject {
  return {
    [name]: {
      '{$request.body#/notifyUrl}': {
        post: {
          operationId,
          summary,
          description: `${description} ${DELIVERY}`,
          // No token: the merchant checks X-Callback-Signature (HMAC with its webhook secret) instead.
          security: [],
          parameters: callbackHeaders(types, exampleId),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: schema } } } },
          responses: {
            '200': { description: 'Any 2xx: delivered' },
            '429': { description: 'Retried, honouring Retry-After' },
            '503': { description: 'Any 5xx (or no answer, or 408): retried' },
          },
        },
      },
    },
  };
}

/** The final status of a transfer, POSTed to its notifyUrl (spec 6; README "Callbacks to notifyUrl"). */
export const DISBURSEMENT_CALLBACKS: CallbacksObject = callback(
  'disbursementFinal',
  'disbursementCallback',
  'Final status of a transfer, sent to its notifyUrl',
  'One POST per transfer once it is success or failed.',
  getSchemaPath(DisbursementCallbackSchema),
  ['disbursement.succeeded', 'disbursement.failed'],
  'disbursement.7f0c2a1e.success',
);

/** The final status of a QRIS pay-in, POSTed to its notifyUrl or the merchant's default pay-in callback URL (README "Pay-in callbacks"). */
export const PAYIN_CALLBACKS: CallbacksObject = {
  ...callback(
    'payinFinal',
    'payinCallback',
    "Final status of a QRIS pay-in, sent to its notifyUrl (or the merchant's default pay-in callback URL)",
    "One POST per final status of the pay-in: payin.succeeded, payin.failed, payin.expired (a paid-late code can send payin.succeeded after payin.expired). Without notifyUrl it goes to the merchant's default pay-in callback URL, set by operators; with neither, none is sent.",
    getSchemaPath(PayinCallbackSchema),
    ['payin.succeeded', 'payin.failed', 'payin.expired'],
    'payin.5b0d3c9a.success',
  ),
  ...callback(
    'payinRefunded',
    'payinRefundedCallback',
    "Final status of a refund of the pay-in (POST /api/v1/payin/refund), sent to the pay-in's notifyUrl (or the merchant's default pay-in callback URL)",
    'One POST per refund once it is success or failed (failed: its failureReason; the amount is back in the balance).',
    getSchemaPath(PayinRefundCallbackSchema),
    ['payin.refunded'],
    'payin.refund.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.success',
  ),
  ...callback(
    'settlementCredited',
    'settlementCreditedCallback',
    "A settlement credited (pending became available), sent to the merchant's default callback URL",
    "One POST per settlement, to the merchant's default pay-in callback URL (not a pay-in's notifyUrl); without one, none is sent. Every event is also in GET /api/v1/events.",
    getSchemaPath(SettlementCreditedCallbackSchema),
    ['settlement.credited'],
    'settlement.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.credited',
  ),
};

/** A batch's callbacks to its notifyUrl (when it has one): each row's final status, then the batch once every row is final. */
export const BATCH_CALLBACKS: CallbacksObject = {
  ...callback(
    'batchRowFinal',
    'batchRowCallback',
    "Final status of one of the batch's rows, sent to the batch's notifyUrl",
    "One POST per accepted row that became a transfer, once it is success or failed: the same body as a single transfer's callback.",
    getSchemaPath(DisbursementCallbackSchema),
    ['disbursement.succeeded', 'disbursement.failed'],
    'disbursement.7f0c2a1e.success',
  ),
  ...callback(
    'batchCompleted',
    'batchCompletedCallback',
    "The batch is complete, sent to the batch's notifyUrl",
    'One POST per batch once every row is final (success, failed or refused): its counts and the money that left.',
    getSchemaPath(BatchCompletedCallbackSchema),
    ['disbursement.batch.completed'],
    'disbursement.batch.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.completed',
  ),
};
