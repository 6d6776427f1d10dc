import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@pay/testing';

/** The build (SWC) resolves the @pay/* aliases from its own list: one missing there is a service or CLI that cannot start. */
describe('the @pay/* aliases', () => {
  it('are the same for the type-checker and the build', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(repoRoot(), file), 'utf8'));
    const tsconfig = read('tsconfig.base.json').compilerOptions.paths as Record<string, string[]>;
    const swc = read('.swcrc').jsc.paths as Record<string, string[]>;
    // @pay/contracts/dashboard is imported for its types only (erased by the build).
    const { '@pay/contracts/dashboard': typesOnly, ...runtime } = tsconfig;
    expect(typesOnly).toBeDefined();
    expect(swc).toEqual(runtime);
  });
});
