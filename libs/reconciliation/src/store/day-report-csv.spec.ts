import { DAY_REPORT_CSV_HEADER, DAY_REPORTS_CSV_HEADER, dayReportCsv, dayReportsCsv } from './day-report-csv';
import type { BreakView, DayReport } from './day-report.query';

const aBreak = (over: Partial<BreakView> = {}): BreakView => ({
  id: 'b1',
  key: 'k1',
  code: 'amount_differs',
  side: 'statement',
  subject: 'batch',
  reference: 'STL-1',
  batchId: 'STL-1',
  expectedAmount: '14895000',
  actualAmount: '14890000',
  expectedDate: '2026-12-03',
  actualDate: '2026-12-03',
  suspense: '5000',
  detail: 'credited short',
  status: 'open',
  owner: null,
  resolution: null,
  resolvedBy: null,
  resolvedAt: null,
  ...over,
});
const report = (acquirer: string, breaks: BreakView[], suspense = '5000'): DayReport => ({
  date: '2026-12-03',
  acquirer,
  rail: 'snap',
  ranAt: '2026-12-04T01:00:00.000Z',
  ranBy: 'test',
  summary: {
    reportLines: { count: 2, amount: '15000000', mdr: '105000', net: '14895000' },
    breaks: breaks.length,
    suspense,
  },
  breaks,
});

describe('the day report as CSV', () => {
  it('one run: summary rows (counts, exact sums in Rupiah), then a row per break; text cells neutralised', () => {
    const csv = dayReportCsv(report('qris', [aBreak({ reference: '=HYPERLINK("x")', resolution: '@SUM(1)' })]));
    expect(csv.split('\n')).toEqual([
      DAY_REPORT_CSV_HEADER.join(','),
      'summary,reportLines,2,150000.00,,,,,,,,,,,,,,',
      'summary,reportLines.mdr,,1050.00,,,,,,,,,,,,,,',
      'summary,reportLines.net,,148950.00,,,,,,,,,,,,,,',
      'summary,breaks,1,,,,,,,,,,,,,,,',
      'summary,suspense,,50.00,,,,,,,,,,,,,,',
      `break,,,,amount_differs,statement,batch,"'=HYPERLINK(""x"")",STL-1,148950.00,148900.00,2026-12-03,2026-12-03,50.00,open,,'@SUM(1),credited short`,
      '',
    ]);
  });

  it('every run of a day: acquirer and rail first, run after run; no run, the header alone', () => {
    const { csv, rows } = dayReportsCsv([report('qris', [aBreak()]), report('sandbox', [], '-1')]);
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe(DAY_REPORTS_CSV_HEADER.join(','));
    expect(DAY_REPORTS_CSV_HEADER.slice(0, 3)).toEqual(['acquirer', 'rail', 'record']);
    expect(rows).toBe(lines.length - 1);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      'qris,snap,summary,reportLines',
      'qris,snap,summary,reportLines.mdr',
      'qris,snap,summary,reportLines.net',
      'qris,snap,summary,breaks',
      'qris,snap,summary,suspense',
      'qris,snap,break,',
      'sandbox,snap,summary,reportLines',
      'sandbox,snap,summary,reportLines.mdr',
      'sandbox,snap,summary,reportLines.net',
      'sandbox,snap,summary,breaks',
      'sandbox,snap,summary,suspense',
    ]);
    expect(lines[11]).toBe('sandbox,snap,summary,suspense,,-0.01,,,,,,,,,,,,,,');
    expect(dayReportsCsv([])).toEqual({ csv: `${DAY_REPORTS_CSV_HEADER.join(',')}\n`, rows: 0 });
  });
});
