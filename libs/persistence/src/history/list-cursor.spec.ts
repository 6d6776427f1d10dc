import { decodeCursor, encodeCursor } from './list-cursor';

describe('list cursors', () => {
  const at = { createdAt: new Date('2026-11-26T03:04:05.678Z'), id: '0b7e6c2a-8f0e-4e0a-9a53-2d1c3b4a5f60' };

  it('round-trips a position, as base64url text', () => {
    const cursor = encodeCursor('payin', at);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('payin', cursor)).toEqual(at);
    expect(
      decodeCursor('movement', encodeCursor('movement', { createdAt: at.createdAt, id: '9223372036854775807' })),
    ).toEqual({ createdAt: at.createdAt, id: '9223372036854775807' });
  });

  it('refuses a cursor of another list, and anything that is not a cursor', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const refused = [
      encodeCursor('disbursement', at),
      '',
      'not a cursor',
      'MTAw', // "100": an offset
      b64(['payin', at.createdAt.toISOString()]),
      b64(['payin', '2026-02-30T00:00:00.000Z', at.id]),
      b64(['payin', '2026-11-26', at.id]),
      b64(['payin', at.createdAt.toISOString(), "1' OR 1=1"]),
      b64(['payin', at.createdAt.toISOString(), 42]),
      b64({ kind: 'payin' }),
      'x'.repeat(201),
    ];
    for (const cursor of refused) expect(decodeCursor('payin', cursor)).toBeUndefined();
    expect(
      decodeCursor('movement', b64(['movement', at.createdAt.toISOString(), '9223372036854775808'])),
    ).toBeUndefined();
    expect(decodeCursor('movement', b64(['movement', at.createdAt.toISOString(), '0']))).toBeUndefined();
  });
});
