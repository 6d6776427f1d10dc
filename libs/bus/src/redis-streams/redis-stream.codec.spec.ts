import { encodeFields, parseAutoClaimReply, parsePendingCounts, parseReadReply } from './redis-stream.codec';

describe('redis stream codec', () => {
  it('round-trips a record through the stored field list', () => {
    const fields = encodeFields({ key: 'm-1', value: '{"a":1}', headers: { 'x-log-id': 'L1' } });
    const reply = parseReadReply([['bus:t:3', [['1-0', fields]]]]);
    expect(reply.get('bus:t:3')).toEqual([{ id: '1-0', key: 'm-1', value: '{"a":1}', headers: { 'x-log-id': 'L1' } }]);
  });

  it('treats a timed-out read as no entries', () => {
    expect(parseReadReply(null).size).toBe(0);
  });

  it('skips entries trimmed away before a claim and reports them', () => {
    const parsed = parseAutoClaimReply([
      '0-0',
      [
        ['1-0', null],
        ['2-0', ['k', 'a', 'v', '1', 'h', '{}']],
      ],
      ['1-0'],
    ]);
    expect(parsed.cursor).toBe('0-0');
    expect(parsed.entries.map((e) => e.id)).toEqual(['2-0']);
    expect(parsed.deleted).toEqual(['1-0']);
  });

  it('reads delivery counts from extended XPENDING', () => {
    expect(parsePendingCounts([['1-0', 'c1', 10, 2]]).get('1-0')).toBe(2);
  });
});
