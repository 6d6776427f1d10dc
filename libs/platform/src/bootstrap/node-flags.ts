/**
 * V8 flags a service runs with wherever it runs: Kubernetes (NODE_OPTIONS in deploy/base),
 * docker-compose (the service's command) and the local stack of the tests, benches and
 * `npm start` (LocalStack). tools/deploy-checks holds the three to the same flags.
 *
 * workers: a young generation of at most 1 MiB per semi-space. The recon export streams a whole
 * day through the process (157 MB for a million pay-ins); at V8's default the young generation
 * grew by about 80 MB for it and kept it (peak RSS 299–302 MB, 218–223 MB before the export).
 * With 1 MiB the peak stayed at the process's size before the export (201–208 MB), the export
 * took as long, and the webhook dispatcher's CPU per callback did not move (the recon and
 * webhook benches, 2026-11-26; decision 0009).
 */
export const SERVICE_NODE_FLAGS: Readonly<Record<'gateway' | 'ledger' | 'payout' | 'workers', readonly string[]>> = {
  gateway: [],
  ledger: [],
  payout: [],
  workers: ['--max-semi-space-size=1'],
};
