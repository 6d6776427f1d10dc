import { getSchemaPath } from '@nestjs/swagger';
import type { CallbacksObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DisbursementCallbackSchema } from './schemas';

/** The headers the workers send with every callback (apps/workers/src/webhooks/webhook-delivery.service.ts). */
const CALLBACK_HEADERS: ParameterObject[] = [
  { name: 'X-Callback-Event-Id', in: 'header', required: true, description: 'The event id (same as the body id); stable across retries and resends', schema: { type: 'string' }, example: 'disbursement.7f0c2a1e.success' },
  { name: 'X-Callback-Event-Type', in: 'header', required: true, description: 'disbursement.succeeded or disbursement.failed', schema: { type: 'string', enum: ['disbursement.succeeded', 'disbursement.failed'] } },
  { name: 'X-Callback-Timestamp', in: 'header', required: true, description: 'Unix seconds the request was signed at', schema: { type: 'integer' }, example: 1795865465 },
  { name: 'X-Callback-Attempt', in: 'header', required: true, description: 'Delivery attempt, from 1', schema: { type: 'integer', minimum: 1 }, example: 1 },
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

/** The final status of a transfer, POSTed to its notifyUrl (spec 6; README "Callbacks to notifyUrl"). */
export const DISBURSEMENT_CALLBACKS: CallbacksObject = {
  disbursementFinal: {
    '{$request.body#/notifyUrl}': {
      post: {
        operationId: 'disbursementCallback',
        summary: 'Final status of a transfer, sent to its notifyUrl',
        description:
          'One POST per transfer once it is success or failed; at-least-once delivery (de-duplicate on id). Answer 2xx within 10 s; no answer, 408, 429 or 5xx is retried (30 s, 2 min, 10 min, … about 24 h), a 3xx or another 4xx is final.',
        // No token: the merchant checks X-Callback-Signature (HMAC with its webhook secret) instead.
        security: [],
        parameters: CALLBACK_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(DisbursementCallbackSchema) } } } },
        responses: {
          '200': { description: 'Any 2xx: delivered' },
          '429': { description: 'Retried, honouring Retry-After' },
          '503': { description: 'Any 5xx (or no answer, or 408): retried' },
        },
      },
    },
  },
};
