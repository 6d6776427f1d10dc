import { Secret, TOTP } from 'otpauth';
import { newTotpSecret, totpCodeMatches, totpEnrolment, totpStepOf } from './totp';

describe('TOTP (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step)', () => {
  const secret = newTotpSecret();
  const at = new Date('2026-11-27T03:00:10Z');
  const codeAt = (ms: number) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: ms,
    });

  it('accepts the code of this step and of the steps either side, not two away', () => {
    expect(totpCodeMatches(secret, codeAt(at.getTime()), at)).toBe(true);
    expect(totpCodeMatches(secret, codeAt(at.getTime() - 30_000), at)).toBe(true);
    expect(totpCodeMatches(secret, codeAt(at.getTime() + 30_000), at)).toBe(true);
    // A fixed secret whose code three steps back differs from the three accepted ones.
    const fixed = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const fixedAt = (ms: number) =>
      new TOTP({ secret: Secret.fromBase32(fixed), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
        timestamp: ms,
      });
    expect(totpCodeMatches(fixed, fixedAt(at.getTime() - 90_000), at)).toBe(false);
  });

  it('names the time step (unix seconds / 30) of the accepted code, which the caller accepts once', () => {
    const step = Math.floor(at.getTime() / 30_000);
    expect(totpStepOf(secret, codeAt(at.getTime()), at)).toBe(step);
    expect(totpStepOf(secret, codeAt(at.getTime() - 30_000), at)).toBe(step - 1);
    expect(totpStepOf(secret, codeAt(at.getTime() + 30_000), at)).toBe(step + 1);
    expect(totpStepOf(secret, 'abcdef', at)).toBeNull();
  });

  it.each([undefined, '', '12345', '1234567', 'abcdef', ' 123456'])('refuses %p', (code) => {
    expect(totpCodeMatches(secret, code, at)).toBe(false);
  });

  it('enrols with a 160-bit base32 secret, an otpauth URL and a PNG QR code', async () => {
    const e = await totpEnrolment(secret, 'finance@toko.example');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(e.url).toBe(
      `otpauth://totp/Payments:finance%40toko.example?issuer=Payments&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(e.qr).toMatch(/^data:image\/png;base64,/);
  });
});
