// The lab server's Redis connection from its URL: user name and password become AUTH, the path SELECT, before any
// other command; a URL that is not a redis:// one is refused naming the setting.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnection } from '../../main/server/redis.js';

let server: Server;
let port = 0;
const received: string[] = [];
const sockets = new Set<Socket>();
beforeAll(async () => {
  // Answers +OK to every command and records them.
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (d) => {
      const cmds = d
        .toString('utf8')
        .split(/(?=\*\d+\r\n)/)
        .map((c) =>
          c
            .split('\r\n')
            .filter((l, i, all) => i > 0 && all[i - 1]!.startsWith('$'))
            .join(' '),
        )
        .filter(Boolean);
      for (const c of cmds) {
        received.push(c);
        socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
);

describe('redisConnection', () => {
  it('sends AUTH and SELECT from the URL before anything else', async () => {
    const c = redisConnection(`redis://lab:s%3Acret@127.0.0.1:${port}/3`, { blocking: true });
    await new Promise<void>((resolve, reject) => {
      c.once('ready', () => resolve());
      c.once('error', reject);
    });
    expect(await c.ping()).toBe('OK');
    const sent = received.map((r) => r.replace(/^\S+/, (w) => w.toUpperCase()));
    expect(sent.slice(0, 2)).toEqual(['AUTH lab s:cret', 'SELECT 3']);
    expect(sent.at(-1)).toBe('PING');
    expect(c.options.maxRetriesPerRequest).toBeNull();
    c.disconnect();
  });

  it('refuses a URL that is not redis:// or rediss://, or a database that is not a number', () => {
    expect(() => redisConnection('http://127.0.0.1:6379')).toThrow(
      'PHASEDESK_REDIS_URL must start with redis:// or rediss:// (got http:)',
    );
    expect(() => redisConnection('redis://127.0.0.1:6379/x')).toThrow(
      "PHASEDESK_REDIS_URL: database 'x' must be an integer >= 0",
    );
    expect(() => redisConnection('not a url')).toThrow("PHASEDESK_REDIS_URL 'not a url' is not a URL");
  });
});
