import { InvalidMessageError, parseLedgerCommand } from './ledger-command';

describe('parseLedgerCommand: the sandbox mark of payin.record', () => {
  const record = (over: object = {}) =>
    JSON.stringify({
      type: 'payin.record',
      commandId: 'payin.record:6f1c2a34-8d5e-4b7a-9c0d-1e2f3a4b5c6d',
      merchantId: 1,
      issuedAt: '2026-11-28T10:00:00.000Z',
      payinId: '6f1c2a34-8d5e-4b7a-9c0d-1e2f3a4b5c6d',
      amount: '5000000',
      fee: '50000',
      ...over,
    });

  it('keeps the mark of a sandbox pay-in, and reads a command without it (any from before the mark) as unmarked', () => {
    expect(parseLedgerCommand(record({ sandbox: true }))).toMatchObject({ type: 'payin.record', sandbox: true });
    expect(parseLedgerCommand(record())).not.toHaveProperty('sandbox');
  });

  it('refuses a mark that is not a boolean', () => {
    expect(() => parseLedgerCommand(record({ sandbox: 'yes' }))).toThrow(InvalidMessageError);
  });
});
