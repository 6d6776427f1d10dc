import fc from 'fast-check';
import { responseExcerpt } from './response-excerpt';

const bytes = (...xs: (number | string)[]) =>
  Buffer.concat(xs.map((x) => (typeof x === 'string' ? Buffer.from(x) : Buffer.from([x]))));

/** What PostgreSQL's text accepts: no NUL, and (as JavaScript text) no lone surrogate, so it encodes to valid UTF-8. */
const storable = (s: string) => !s.includes('\u0000') && Buffer.from(s, 'utf8').toString('utf8') === s;

describe('responseExcerpt', () => {
  it('keeps UTF-8 text as it is', () => {
    expect(responseExcerpt(bytes('{"ok":true} — terima kasih 🙏'), 1024)).toBe('{"ok":true} — terima kasih 🙏');
    expect(responseExcerpt(bytes(''), 1024)).toBe('');
  });

  it('removes NUL bytes', () => {
    expect(responseExcerpt(bytes('a', 0, 'b', 0, 0), 1024)).toBe('ab');
  });

  it('turns each invalid UTF-8 sequence into one U+FFFD: stray continuation bytes, 0xFE/0xFF, overlong forms, surrogates, a lead byte without its continuation', () => {
    expect(responseExcerpt(bytes('a', 0x80, 'b'), 1024)).toBe('a\uFFFDb');
    expect(responseExcerpt(bytes(0xff, 0xfe), 1024)).toBe('\uFFFD\uFFFD');
    expect(responseExcerpt(bytes(0xc0, 0xaf), 1024)).toBe('\uFFFD\uFFFD'); // overlong '/'
    expect(responseExcerpt(bytes(0xed, 0xa0, 0x80), 1024)).toBe('\uFFFD\uFFFD\uFFFD'); // an encoded surrogate
    expect(responseExcerpt(bytes(0xc3, '('), 1024)).toBe('\uFFFD(');
  });

  it('drops a sequence cut off at the end (the answer was read up to a byte limit)', () => {
    const euro = Buffer.from('€'); // 3 bytes
    expect(responseExcerpt(bytes('price ', euro[0], euro[1]), 1024)).toBe('price ');
  });

  it('keeps a leading byte-order mark as text, as received', () => {
    expect(responseExcerpt(bytes(0xef, 0xbb, 0xbf, 'ok'), 1024)).toBe('\uFEFFok');
  });

  it('stops at maxChars without splitting a surrogate pair', () => {
    expect(responseExcerpt(bytes('x'.repeat(5000)), 1024)).toHaveLength(1024);
    expect(responseExcerpt(bytes('abc🙏'), 4)).toBe('abc');
    expect(responseExcerpt(bytes('ab🙏'), 4)).toBe('ab🙏');
  });

  it('whatever the bytes, the excerpt is storable and at most maxChars long', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (raw, max) => {
        const excerpt = responseExcerpt(raw, max);
        return storable(excerpt) && excerpt.length <= max;
      }),
      { numRuns: 2000 },
    );
  });
});
