import { isOlderNode, nodeVersionProblem, REQUIRED_NODE_VERSION } from './node-version';

describe('node version check', () => {
  it('orders versions by major, minor and patch, numerically', () => {
    expect(isOlderNode('20.20.2', '24.21.0')).toBe(true);
    expect(isOlderNode('24.20.9', '24.21.0')).toBe(true);
    expect(isOlderNode('24.21.0', '24.21.0')).toBe(false);
    expect(isOlderNode('v24.21.1', '24.21.0')).toBe(false);
    expect(isOlderNode('24.100.0', '24.21.0')).toBe(false);
    expect(isOlderNode('26.0.0', '24.21.0')).toBe(false);
  });

  it('refuses an older Node.js, naming the version found and the one required', () => {
    expect(nodeVersionProblem('20.20.2', '24.21.0')).toBe(
      'Node.js 20.20.2 is too old: this project requires Node.js 24.21.0 or newer (the version in .nvmrc). ' +
        'Run `nvm install` (or `fnm use`) in the checkout, or let tools/test.sh and tools/dev/up.sh install it into .local/node.',
    );
    expect(nodeVersionProblem('24.20.0')).toContain(`requires Node.js ${REQUIRED_NODE_VERSION} or newer`);
  });

  it('accepts the required version and newer ones', () => {
    expect(nodeVersionProblem(REQUIRED_NODE_VERSION)).toBeUndefined();
    expect(nodeVersionProblem('24.22.0', '24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('26.10.0', '24.21.0')).toBeUndefined();
  });

  it('throws on something that is not a version rather than letting it pass', () => {
    expect(() => nodeVersionProblem('garbage')).toThrow('not a Node.js version: garbage');
  });
});
