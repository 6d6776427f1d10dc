import { isLoopbackHost } from './bind-host';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );
  it.each(['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'gateway', '127.example.com', '::ffff:10.0.0.1'])(
    '%s is not',
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
});
