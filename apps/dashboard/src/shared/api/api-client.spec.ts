import { createApiClient, REAUTH_CANCELLED, REAUTH_CONFIRMED } from './api-client';
import { ApiError } from './api-error';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: Call[] = [];
  const fn = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };
  return { fn: fn as typeof fetch, calls };
}

function client(f: typeof fetch, csrf: string | null = 'csrf-1', onSessionRequired = jest.fn()) {
  return {
    api: createApiClient({ baseUrl: '/dashboard/api', fetch: f, csrfToken: () => csrf, onSessionRequired }),
    onSessionRequired,
  };
}

describe('createApiClient', () => {
  it('unwraps the envelope, sends same-origin credentials, drops empty query values, and sends no CSRF token on GET', async () => {
    const { fn, calls } = fakeFetch(200, { logId: 'l', status: true, message: 'ok', data: { items: [1] } });
    const { api } = client(fn);
    await expect(api.get('/payins', { status: 'pending', cursor: null, merchantTrxId: '' })).resolves.toEqual({
      items: [1],
    });
    expect(calls[0].url).toBe('/dashboard/api/payins?status=pending');
    expect(calls[0].init.credentials).toBe('same-origin');
    expect((calls[0].init.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined();
  });

  it('sends the session CSRF token and a JSON body on POST, PUT and DELETE', async () => {
    const { fn, calls } = fakeFetch(200, { logId: 'l', status: true, message: 'ok', data: null });
    const { api } = client(fn);
    await api.post('/payins', { amount: 10000 });
    await api.put('/allowlist', { enabled: true, entries: [] });
    await api.delete('/tokens/1');
    for (const c of calls) expect((c.init.headers as Record<string, string>)['X-CSRF-Token']).toBe('csrf-1');
    expect(calls.map((c) => c.init.method)).toEqual(['POST', 'PUT', 'DELETE']);
    expect(calls[0].init.body).toBe('{"amount":10000}');
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('throws an ApiError with the code, message, field errors and Retry-After', async () => {
    const { fn } = fakeFetch(
      423,
      { logId: 'l', status: false, message: 'Locked', code: 'ACCOUNT_LOCKED' },
      { 'Retry-After': '900' },
    );
    const { api } = client(fn);
    const error = await api.post('/session', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 423, code: 'ACCOUNT_LOCKED', message: 'Locked', retryAfterSeconds: 900 });

    const bad = fakeFetch(400, {
      logId: 'l',
      status: false,
      message: 'Bad',
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'amount', message: 'amount must be positive' }],
    });
    const e2 = (await client(bad.fn)
      .api.post('/payins', {})
      .catch((e: unknown) => e)) as ApiError;
    expect(e2.fieldMessage('amount')).toBe('amount must be positive');
    expect(e2.fieldMessage('merchantTrxId')).toBeUndefined();
  });

  it('calls onSessionRequired on 401 SESSION_REQUIRED only', async () => {
    const expired = fakeFetch(401, { logId: 'l', status: false, message: 'Sign in', code: 'SESSION_REQUIRED' });
    const a = client(expired.fn);
    await expect(a.api.get('/overview')).rejects.toMatchObject({ code: 'SESSION_REQUIRED' });
    expect(a.onSessionRequired).toHaveBeenCalledTimes(1);

    const wrong = fakeFetch(401, { logId: 'l', status: false, message: 'Wrong', code: 'SIGN_IN_FAILED' });
    const b = client(wrong.fn);
    await expect(b.api.post('/session', {})).rejects.toMatchObject({ code: 'SIGN_IN_FAILED' });
    expect(b.onSessionRequired).not.toHaveBeenCalled();
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    const { api } = client((async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    await expect(api.get('/session')).rejects.toMatchObject({ code: 'NETWORK_ERROR', httpStatus: 0 });
  });

  describe('step-up (401 REAUTH_REQUIRED)', () => {
    const reauth = { logId: 'l', status: false, message: 'Confirm your password to continue', code: 'REAUTH_REQUIRED' };
    const created = { logId: 'l', status: true, message: 'ok', data: { id: 't1' } };

    /** Answers the given envelopes in turn (401 for REAUTH_REQUIRED, 200 otherwise). */
    function scripted(...bodies: Record<string, unknown>[]) {
      const calls: Call[] = [];
      const fn = async (url: string | URL | Request, init?: RequestInit) => {
        calls.push({ url: String(url), init: init ?? {} });
        const body = bodies[Math.min(calls.length - 1, bodies.length - 1)];
        return new Response(JSON.stringify(body), {
          status: body.code === 'REAUTH_REQUIRED' ? 401 : 200,
          headers: { 'Content-Type': 'application/json' },
        });
      };
      return { fn: fn as typeof fetch, calls };
    }
    const withReauth = (f: typeof fetch, answer: boolean) => {
      const onReauthRequired = jest.fn(async () => answer);
      const onSessionRequired = jest.fn();
      return {
        api: createApiClient({
          baseUrl: '/dashboard/api',
          fetch: f,
          csrfToken: () => 'csrf-1',
          onSessionRequired,
          onReauthRequired,
        }),
        onReauthRequired,
        onSessionRequired,
      };
    };

    it('asks to confirm, then sends the same call again once confirmed', async () => {
      const { fn, calls } = scripted(reauth, created);
      const { api, onReauthRequired, onSessionRequired } = withReauth(fn, true);
      await expect(api.post('/tokens', { label: 'ci' })).resolves.toEqual({ id: 't1' });
      expect(onReauthRequired).toHaveBeenCalledTimes(1);
      expect(onSessionRequired).not.toHaveBeenCalled();
      expect(calls).toHaveLength(2);
      expect(calls[1]).toEqual(calls[0]);
      expect(calls[1].init).toMatchObject({ method: 'POST', body: '{"label":"ci"}' });
    });

    it('cancelled: the call fails with REAUTH_CANCELLED and is not sent again', async () => {
      const { fn, calls } = scripted(reauth, created);
      const { api } = withReauth(fn, false);
      await expect(api.delete('/tokens/t1')).rejects.toMatchObject({ code: REAUTH_CANCELLED });
      expect(calls).toHaveLength(1);
    });

    it("asks once per call: a second REAUTH_REQUIRED is the caller's error", async () => {
      const { fn, calls } = scripted(reauth, reauth, created);
      const { api, onReauthRequired } = withReauth(fn, true);
      await expect(api.put('/allowlist', { entries: [] })).rejects.toMatchObject({
        code: 'REAUTH_REQUIRED',
        httpStatus: 401,
      });
      expect(onReauthRequired).toHaveBeenCalledTimes(1);
      expect(calls).toHaveLength(2);
    });

    it("afterReauth 'fail': confirmed, but not sent again (its one-time code may be used up)", async () => {
      const { fn, calls } = scripted(reauth, created);
      const { api, onReauthRequired } = withReauth(fn, true);
      await expect(api.post('/totp/disable', { code: '123456' }, { afterReauth: 'fail' })).rejects.toMatchObject({
        code: REAUTH_CONFIRMED,
      });
      expect(onReauthRequired).toHaveBeenCalledTimes(1);
      expect(calls).toHaveLength(1);
    });

    it('without onReauthRequired the REAUTH_REQUIRED error is thrown as is', async () => {
      const { fn } = scripted(reauth);
      await expect(client(fn).api.post('/tokens', {})).rejects.toMatchObject({ code: 'REAUTH_REQUIRED' });
    });
  });
});
