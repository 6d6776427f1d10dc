import type { ApiScopeName, MerchantRoleName } from '@pay/contracts/dashboard';
import {
  API_SCOPES,
  type ApiScope,
  MERCHANT_ROLES,
  type MerchantRole,
  PERMISSIONS,
  type Permission,
  roleAllows,
} from '@pay/domain';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dashboardRoutes } from '../testing/dashboard-routes';
import { SCOPE_EXTENSION } from '../kernel/auth/merchant/requires-scope';
import { reaches } from '../kernel/auth/session/role-reach';
import { generateDocuments } from './generate-document';

const ACCESS_DOC = join(__dirname, '..', '..', '..', '..', 'docs', 'access.md');

/** The rows of the markdown table under `## <heading>`, each split into its cells (backticks dropped). */
export function tableUnder(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/access.md has no section "## ${heading}"`);
  const rest = markdown.slice(start + heading.length + 5);
  const section = rest.slice(0, rest.search(/\n## |$/));
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
}

describe('docs/access.md, the reach of each scope and role, against the code', () => {
  const doc = readFileSync(ACCESS_DOC, 'utf8');

  it('gives the scope of every merchant API route, as the routes declare it (a route missing or wrong fails)', async () => {
    const { merchant } = await generateDocuments();
    const declared = Object.entries(merchant.paths)
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, Record<string, unknown>>).map(
          ([method, op]) => `${method.toUpperCase()} ${path} ${String(op[SCOPE_EXTENSION])}`,
        ),
      )
      .sort();
    const documented = tableUnder(doc, 'API scopes by route')
      .map(([route, scope]) => `${route} ${scope}`)
      .sort();
    expect(documented).toEqual(declared);
  });

  it("gives each role's permissions as roleAllows does, every permission once", () => {
    const rows = tableUnder(doc, 'Dashboard roles').flatMap(([permissions, ...cells]) =>
      [...permissions.matchAll(/[a-z]+:[a-z]+/g)].map((m) => ({ permission: m[0] as Permission, cells })),
    );
    expect(rows.map((r) => r.permission).sort()).toEqual([...PERMISSIONS].sort());
    for (const { permission, cells } of rows)
      expect({ permission, allowed: cells.map((c) => c === 'yes') }).toEqual({
        permission,
        allowed: MERCHANT_ROLES.map((role) => roleAllows(role, permission)),
      });
  });

  it('gives the roles reaching every /dashboard/api route, as the routes declare it (a route missing or wrong fails)', () => {
    const mark = (yes: boolean) => (yes ? 'yes' : '');
    const declared = dashboardRoutes()
      .map((r) =>
        [
          `${r.method.toUpperCase()} ${r.path}`,
          r.reach ?? 'owner only',
          ...MERCHANT_ROLES.map((role) => mark(reaches(role, r.reach))),
        ].join(' | '),
      )
      .sort();
    const documented = tableUnder(doc, 'Dashboard routes by role')
      .map((cells) => cells.join(' | '))
      .sort();
    expect(documented).toEqual(declared);
  });

  it("keeps the web app's contract types to the access model (a type check)", () => {
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
    const scopes: Same<ApiScope, ApiScopeName> = true;
    const roles: Same<MerchantRole, MerchantRoleName> = true;
    expect([scopes, roles]).toEqual([true, true]);
  });

  it('names every scope and role', () => {
    for (const scope of API_SCOPES) expect(doc).toContain(`\`${scope}\``);
    for (const role of MERCHANT_ROLES) expect(doc).toContain(`\`${role}\``);
  });
});
