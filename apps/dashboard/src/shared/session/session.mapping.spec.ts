import type { SessionView } from '@pay/contracts/dashboard';
import { toSession } from './session.mapping';

describe('toSession', () => {
  it('keeps a merchant user and its merchant', () => {
    const answer: SessionView = {
      user: {
        id: 3,
        email: 'a@b.co',
        role: 'merchant',
        totpEnabled: true,
        merchantRole: 'finance',
        permissions: ['balance:read', 'reports:read'],
      },
      merchant: { id: 7, name: 'Toko' },
      csrfToken: 'c',
      sandbox: true,
    };
    expect(toSession(answer)).toEqual(answer);
  });

  it('keeps an operator without a merchant, and drops what the contract does not name', () => {
    const answer = {
      user: {
        id: 4,
        email: 'op@b.co',
        role: 'operator',
        totpEnabled: false,
        merchantRole: null,
        permissions: [],
        extra: 1,
      },
      merchant: null,
      csrfToken: 'x',
      sandbox: false,
      extra: 2,
    } as unknown as SessionView;
    expect(toSession(answer)).toEqual({
      user: { id: 4, email: 'op@b.co', role: 'operator', totpEnabled: false, merchantRole: null, permissions: [] },
      merchant: null,
      csrfToken: 'x',
      sandbox: false,
    });
  });
});
