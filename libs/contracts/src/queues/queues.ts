/**
 * BullMQ queue names and job payloads. NEVER rename a queue: jobs waiting under the old name
 * would be stranded. A changed payload is a new job name handled beside the old one.
 */
export const QueueName = {
  // 'webhook-delivery' is retired: webhook attempts run from the delivery rows (decision 0024);
  // jobs left under it are harmless, since their deliveries are claimed from the database.
  Settlement: 'settlement',
  ReconExport: 'recon-export',
} as const;

/** Settle what is due now, for every merchant (the repeatable scan) or one. */
export interface SettlementScanJob {
  merchantId?: number;
}

/** Build one recon CSV; the export row holds merchant and date. */
export interface ReconExportJob {
  exportId: string;
}
