import {
  API_SCOPES,
  MERCHANT_ROLES,
  PERMISSIONS,
  normaliseScopes,
  roleAllows,
  scopesAllow,
  isApiScope,
  isMerchantRole,
} from './access';

describe('the access model', () => {
  it('names the scopes and roles of issue 45', () => {
    expect(API_SCOPES.join(' ')).toBe(
      'balance:read payins:read payins:write payouts:read payouts:write payouts:approve refunds:write reports:read',
    );
    expect(MERCHANT_ROLES).toEqual(['owner', 'developer', 'finance', 'viewer']);
  });

  it('lets the owner do everything', () => {
    for (const p of PERMISSIONS) expect(roleAllows('owner', p)).toBe(true);
  });

  it('gives developers tokens and webhooks, finance reports and approvals, everyone the reads', () => {
    const allowed = (role: (typeof MERCHANT_ROLES)[number]) => PERMISSIONS.filter((p) => roleAllows(role, p));
    expect(allowed('developer')).toEqual([
      'balance:read',
      'payins:read',
      'payouts:read',
      'tokens:manage',
      'webhooks:manage',
    ]);
    expect(allowed('finance')).toEqual([
      'balance:read',
      'payins:read',
      'payouts:read',
      'payouts:approve',
      'reports:read',
    ]);
    expect(allowed('viewer')).toEqual(['balance:read', 'payins:read', 'payouts:read']);
  });

  it('refuses what no role names', () => {
    expect(roleAllows('viewer', 'payouts:write')).toBe(false);
    expect(roleAllows('developer', 'payouts:approve')).toBe(false);
    expect(roleAllows('finance', 'tokens:manage')).toBe(false);
    expect(roleAllows('nobody' as never, 'payins:read')).toBe(false);
  });

  it('tells scopes and roles from other strings', () => {
    expect(isApiScope('payins:read')).toBe(true);
    expect(isApiScope('payins:delete')).toBe(false);
    expect(isMerchantRole('finance')).toBe(true);
    expect(isMerchantRole('merchant')).toBe(false);
  });

  it('normalises the scopes a token is issued with: none given is full access, order fixed, unknown or empty refused', () => {
    expect(normaliseScopes(undefined)).toEqual({ scopes: [...API_SCOPES] });
    expect(normaliseScopes(['payouts:read', 'balance:read', 'payouts:read'])).toEqual({
      scopes: ['balance:read', 'payouts:read'],
    });
    expect(normaliseScopes(['balance:read', 'money:print'])).toEqual({ invalid: 'money:print' });
    expect(normaliseScopes([])).toEqual({ invalid: '' });
    expect(scopesAllow(['balance:read'], 'balance:read')).toBe(true);
    expect(scopesAllow(['balance:read'], 'payins:read')).toBe(false);
  });
});
