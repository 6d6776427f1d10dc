/**
 * The merchant API as the end-to-end suites call it: `path` under /api/v1/ on the gateway at
 * `baseUrl()` (read per call: the stack starts in beforeAll), POST with a JSON body or GET
 * without, answering the HTTP status and the parsed body (asserted field by field by the suites).
 */
export function merchantApi(baseUrl: () => string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
  return async (path: string, token: string, body?: object): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${baseUrl()}/api/v1/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
}
