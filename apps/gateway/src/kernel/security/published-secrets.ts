/**
 * Every secret value this repository has ever published (the code's development default,
 * docker-compose.yml / .env.compose / docker-compose.e2e.yml, .env.example, deploy/). Anyone can
 * read them, so a gateway reachable from another machine, or running with NODE_ENV=production,
 * refuses them as ACQUIRER_SECRET (forged pay-in notifications) and ADMIN_TOKEN (the ops API).
 * published-secrets.spec.ts checks that every value in those files is listed here. A value
 * removed from the files stays here: it remains in the repository's history.
 */
export const DEV_ACQUIRER_SECRET = 'dev-only-acquirer-secret-0123456789abcdef';

export const PUBLISHED_SECRETS: readonly string[] = [
  DEV_ACQUIRER_SECRET,
  'compose-acquirer-secret-change-me-0123456789',
  'compose-admin-token-change-me-0123456789abcdef',
  'REPLACE_ME',
];

export function isPublishedSecret(value: string): boolean {
  return PUBLISHED_SECRETS.includes(value.trim());
}
