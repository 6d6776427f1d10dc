const crypto = require('node:crypto');

// rawBody: the request body exactly as received (string or Buffer), before JSON parsing.
function verifyCallback(rawBody, signatureHeader, secret, toleranceSec = 300) {
  const items = signatureHeader.split(',').map((kv) => kv.split('='));
  const t = Number(items.find(([k]) => k === 't')?.[1]);
  if (!t || Math.abs(Date.now() / 1000 - t) > toleranceSec) return false; // too old: replay
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return items.some(([k, v]) => k === 'v1' && v.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(v), Buffer.from(expected)));
}

module.exports = { verifyCallback };
