import { printResults, recordNumbers, reported, structured } from './report';

describe('what a bench reports', () => {
  it('keeps numbers printed as text as numbers, and words as words', () => {
    expect([structured('0.123'), structured('1.00'), structured('-4'), structured(7)]).toEqual([0.123, 1, -4, 7]);
    expect([structured('met'), structured('20 ms'), structured('–'), structured('12.3 %')]).toEqual([
      'met',
      '20 ms',
      '–',
      '12.3 %',
    ]);
  });

  it('records every printed table by its title and each named group of numbers', () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const table = jest.spyOn(console, 'table').mockImplementation(() => undefined);
    try {
      printResults('balance GET', [{ target: 'gateway', rps: 900, ratio: '0.61' }]);
      printResults('balance GET', [{ target: 'gateway', rps: 950, ratio: '0.63' }]);
      recordNumbers('through the bus', { commandsPerSecond: 4200 });
      recordNumbers('through the bus', { transactions: 80 });
    } finally {
      log.mockRestore();
      table.mockRestore();
    }
    expect(reported().tables).toEqual({
      'balance GET': [{ target: 'gateway', rps: 900, ratio: 0.61 }],
      'balance GET (2)': [{ target: 'gateway', rps: 950, ratio: 0.63 }],
    });
    expect(reported().numbers).toEqual({ 'through the bus': { commandsPerSecond: 4200, transactions: 80 } });
  });
});
