import { LocalS3 } from './local-s3';

/** The chaos run takes object storage away and brings it back: same port, same files. */
describe('LocalS3 restart', () => {
  it('refuses connections while stopped, then serves the same objects on the same endpoint', async () => {
    const s3 = await LocalS3.start();
    try {
      expect((await fetch(`${s3.endpoint}/kept`, { method: 'PUT' })).status).toBe(200);
      expect((await fetch(`${s3.endpoint}/kept/a.csv`, { method: 'PUT', body: 'x,y\n1,2\n' })).status).toBe(200);

      await s3.stop();
      expect(s3.running).toBe(false);
      await expect(fetch(`${s3.endpoint}/kept/a.csv`)).rejects.toThrow();

      await s3.restart();
      const res = await fetch(`${s3.endpoint}/kept/a.csv`);
      expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: 'x,y\n1,2\n' });
    } finally {
      await s3.close();
    }
  });
});
