/**
 * BullMQ queue names and job payloads. NEVER rename a queue: jobs waiting under the old name
 * would be stranded. A changed payload is a new job name handled beside the old one.
 */
export const QueueName = {
  WebhookDelivery: 'webhook-delivery',
  Settlement: 'settlement',
  ReconExport: 'recon-export',
} as const;

/** One attempt to deliver one webhook; the delivery row holds everything else. */
export interface WebhookDeliveryJob {
  deliveryId: string;
}

/** Settle what is due now, for every merchant (the repeatable scan) or one. */
export interface SettlementScanJob {
  merchantId?: number;
}

/** Build one recon CSV; the export row holds merchant and date. */
export interface ReconExportJob {
  exportId: string;
}
