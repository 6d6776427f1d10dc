import { toSession } from './session.mapping';

describe('toSession', () => {
  it('reads the nested form', () => {
    expect(toSession({ user: { id: 3, email: 'a@b.co', role: 'merchant', totpEnabled: true }, merchant: { id: 7, name: 'Toko' }, csrfToken: 'c', sandbox: true })).toEqual({
      user: { id: '3', email: 'a@b.co', role: 'merchant', totpEnabled: true },
      merchant: { id: '7', name: 'Toko' },
      csrfToken: 'c',
      sandbox: true,
    });
  });

  it('reads the flat form, and an operator without a merchant', () => {
    expect(toSession({ userId: 4, email: 'op@b.co', role: 'operator', merchantId: null, csrfToken: 'x', totpEnabledAt: '2026-11-25T00:00:00Z' })).toEqual({
      user: { id: '4', email: 'op@b.co', role: 'operator', totpEnabled: true },
      merchant: null,
      csrfToken: 'x',
      sandbox: false,
    });
  });
});
