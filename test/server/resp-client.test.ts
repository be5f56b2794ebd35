// The lab server's Redis client (main/server/resp-client.ts) against a fake server that sends every reply one byte
// at a time: replies split anywhere are put together, nested arrays, errors and nulls arrive as RESP2 defines them,
// pipelined replies reach their own requests, and a closed connection rejects what is still waiting.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RespClient } from '../../main/server/resp-client.js';

const REPLIES: Record<string, string> = {
  GET: '$5\r\nhé!!\r\n',                         // 5 bytes of UTF-8 (é is two)
  NIL: '$-1\r\n',
  NESTED: '*3\r\n$1\r\na\r\n*2\r\n:42\r\n+OK\r\n*-1\r\n',
  FAIL: '-ERR wrong kind of value\r\n',
  EMPTY: '$0\r\n\r\n',
};

let server: Server;
let port = 0;
const received: string[] = [];
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = '';
    // one reply at a time per connection, as a server does (the byte-by-byte writes must not interleave)
    let answering = Promise.resolve();
    socket.on('data', (d) => { buf += d.toString('utf8'); answering = answering.then(answer); });
    async function answer() {
      // requests: *N\r\n$len\r\nCMD\r\n... ; answer each complete one, byte by byte
      for (;;) {
        const m = /^\*(\d+)\r\n/.exec(buf);
        if (!m) return;
        let pos = m[0].length;
        const parts: string[] = [];
        for (let i = 0; i < Number(m[1]); i++) {
          const l = /^\$(\d+)\r\n/.exec(buf.slice(pos));
          if (!l) return;
          const start = pos + l[0].length;
          if (Buffer.byteLength(buf.slice(start)) < Number(l[1]) + 2) return;
          parts.push(buf.slice(start, start + Number(l[1])));
          pos = start + Number(l[1]) + 2;
        }
        buf = buf.slice(pos);
        received.push(parts.join(' '));
        if (parts[0] === 'CLOSE') { socket.destroy(); return; }
        for (const byte of Buffer.from(REPLIES[parts[0]!] ?? '+OK\r\n')) {
          socket.write(Buffer.from([byte]));
          await new Promise((r) => setImmediate(r));
        }
      }
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }));

describe('RESP client', () => {
  it('puts replies split at every byte together, in request order', async () => {
    const c = new RespClient(`redis://127.0.0.1:${port}`);
    let connected = 0;
    c.onconnect = () => { connected++; };
    await c.connect();
    expect([c.connected, connected]).toEqual([true, 1]);
    const [get, nil, nested, empty] = await Promise.all([c.get('k'), c.send('NIL', []), c.send('NESTED', ['x', Buffer.from('y')]), c.send('EMPTY', [])]);
    expect(get).toBe('hé!!');
    expect(nil).toBeNull();
    expect(nested).toEqual(['a', [42, 'OK'], null]);
    expect(empty).toBe('');
    await expect(c.send('FAIL', [])).rejects.toThrow('ERR wrong kind of value');
    expect(received).toContain('NESTED x y');
    c.close();
  });

  it('a closed connection rejects the waiting request and reports the close', async () => {
    const c = new RespClient(`redis://127.0.0.1:${port}`);
    const closed = new Promise<Error | undefined>((r) => { c.onclose = r; });
    await c.connect();
    await expect(c.send('CLOSE', [])).rejects.toThrow('Connection closed');
    expect((await closed)?.message).toBe('Connection closed');
    expect(c.connected).toBe(false);
    await expect(c.send('GET', ['k'])).rejects.toThrow('Connection closed');
  });

  it('sends AUTH and SELECT from the URL before anything else', async () => {
    received.length = 0;
    const c = new RespClient(`redis://lab:s%3Acret@127.0.0.1:${port}/3`);
    await c.connect();
    expect(received).toEqual(['AUTH lab s:cret', 'SELECT 3']);
    c.close();
  });
});
