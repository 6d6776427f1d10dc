import type { SessionView } from '@pay/contracts/dashboard';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../api/api-client';
import { toSession, type Session } from './session.mapping';

type SessionState =
  { status: 'loading' } | { status: 'signed-out'; reason?: 'expired' } | { status: 'signed-in'; session: Session };

interface SessionContextValue {
  api: ApiClient;
  state: SessionState;
  /** After sign-in (its answer is the session) */
  signedIn(answer: SessionView): void;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
  /** A step-up is waiting for the user (a call answered 401 REAUTH_REQUIRED): ReauthDialog shows */
  reauthPending: boolean;
  /** ReauthDialog's answer: confirmed (the waiting calls are sent again) or cancelled (they fail) */
  settleReauth(confirmed: boolean): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ baseUrl, children }: { baseUrl: string; children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const csrf = useRef<string | null>(null);
  // One prompt for every call refused meanwhile: they all wait for the same answer.
  const reauth = useRef<{ promise: Promise<boolean>; resolve: (confirmed: boolean) => void } | null>(null);
  const [reauthPending, setReauthPending] = useState(false);

  const askToReauth = useCallback((): Promise<boolean> => {
    if (!reauth.current) {
      let resolve: (confirmed: boolean) => void = () => undefined;
      const promise = new Promise<boolean>((r) => (resolve = r));
      reauth.current = { promise, resolve };
      setReauthPending(true);
    }
    return reauth.current.promise;
  }, []);

  const settleReauth = useCallback((confirmed: boolean) => {
    const waiting = reauth.current;
    reauth.current = null;
    setReauthPending(false);
    waiting?.resolve(confirmed);
  }, []);

  const api = useMemo(
    () =>
      createApiClient({
        baseUrl,
        csrfToken: () => csrf.current,
        onSessionRequired: () => {
          csrf.current = null;
          // Calls waiting for a step-up fail (cancelled): the sign-in page takes over.
          settleReauth(false);
          setState({ status: 'signed-out', reason: 'expired' });
        },
        onReauthRequired: askToReauth,
      }),
    [baseUrl, askToReauth, settleReauth],
  );

  const signedIn = useCallback((answer: SessionView) => {
    const session = toSession(answer);
    csrf.current = session.csrfToken;
    setState({ status: 'signed-in', session });
  }, []);

  const refresh = useCallback(async () => {
    // The probe answers null rather than 401 when nobody is signed in (a 401 is logged as an error).
    const session = await api.get<SessionView | null>('/session/probe');
    if (session) return signedIn(session);
    csrf.current = null;
    setState({ status: 'signed-out' });
  }, [api, signedIn]);

  const signOut = useCallback(async () => {
    try {
      await api.delete('/session');
    } finally {
      csrf.current = null;
      settleReauth(false);
      setState({ status: 'signed-out' });
    }
  }, [api, settleReauth]);

  useEffect(() => {
    refresh().catch(() => setState({ status: 'signed-out' }));
  }, [refresh]);

  const value = useMemo(
    () => ({ api, state, signedIn, signOut, refresh, reauthPending, settleReauth }),
    [api, state, signedIn, signOut, refresh, reauthPending, settleReauth],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionContext(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSessionContext outside SessionProvider');
  return ctx;
}

export function useApi(): ApiClient {
  return useSessionContext().api;
}

/**
 * Whether the signed-in merchant user's role allows a permission (docs/access.md: the session's
 * permissions, as the gateway enforces them): what it does not allow is not shown.
 */
export function useCan(): (permission: string) => boolean {
  const { state } = useSessionContext();
  const permissions = state.status === 'signed-in' ? state.session.user.permissions : [];
  return (permission) => permissions.includes(permission);
}

/** The signed-in session (only inside the signed-in layout). */
export function useSession(): Session {
  const { state } = useSessionContext();
  if (state.status !== 'signed-in') throw new Error('useSession without a session');
  return state.session;
}
