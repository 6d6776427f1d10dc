/**
 * The compose stack as tools/containers/compose-test.sh gives it to the specs of e2e/compose:
 * the gateway's published public and internal ports and the stack's ADMIN_TOKEN.
 */
export function composeTarget() {
  const base = process.env.E2E_BASE_URL;
  const internal = process.env.E2E_INTERNAL_URL;
  const adminToken = process.env.E2E_ADMIN_TOKEN;
  if (!base || !internal || !adminToken) throw new Error('set E2E_BASE_URL, E2E_INTERNAL_URL and E2E_ADMIN_TOKEN');
  /** POST to the ops API; the answer's data. */
  const ops = async (path: string, body: object): Promise<Record<string, unknown>> => {
    const res = await fetch(`${internal}/ops/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  return { base, internal, adminToken, ops };
}
