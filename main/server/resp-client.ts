// A small Redis client (RESP2 over one TCP connection) with the surface of Bun's built-in RedisClient: `send`,
// `connect`, `close`, `connected`, `onconnect`/`onclose`/`onerror`, `url`. BullMQ recognises that surface and drives
// it through its own adapter (bullmq/dist/esm/classes/bun-redis-client.js), so the lab server needs no Redis client
// package beside bullmq. Replies arrive in request order on a connection, so a FIFO of waiting promises is the whole
// protocol state; a blocking command (BZPOPMIN) simply waits at the head of that FIFO on its own connection.
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

type Reply = string | number | null | Error | Reply[];
interface Waiting { resolve(v: Reply): void; reject(e: Error): void }

const INCOMPLETE = Symbol('incomplete');

/** One RESP2 value from buf at pos: [value, next position], or INCOMPLETE when more bytes are needed. */
function parse(buf: Buffer, pos: number): [Reply, number] | typeof INCOMPLETE {
  const eol = buf.indexOf('\r\n', pos);
  if (eol < 0) return INCOMPLETE;
  const type = String.fromCharCode(buf[pos]!);
  const line = buf.toString('utf8', pos + 1, eol);
  const next = eol + 2;
  switch (type) {
    case '+': return [line, next];
    case '-': return [new Error(line), next];
    case ':': return [Number(line), next];
    case '$': {
      const n = Number(line);
      if (n < 0) return [null, next];
      if (buf.length < next + n + 2) return INCOMPLETE;
      if (buf[next + n] !== 0x0d || buf[next + n + 1] !== 0x0a) throw new Error('Redis protocol error: a bulk string longer than its length');
      return [buf.toString('utf8', next, next + n), next + n + 2];
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return [null, next];
      const items: Reply[] = [];
      let p = next;
      for (let i = 0; i < n; i++) {
        const r = parse(buf, p);
        if (r === INCOMPLETE) return INCOMPLETE;
        items.push(r[0]);
        p = r[1];
      }
      return [items, p];
    }
    default: throw new Error(`Redis protocol error: unexpected reply type '${type}'`);
  }
}

function encode(command: string, args: readonly unknown[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n$${Buffer.byteLength(command)}\r\n${command}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(a === undefined || a === null ? '' : String(a));
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

export class RespClient {
  connected = false;
  onconnect?: () => void;
  onclose?: (error?: Error) => void;
  onerror?: (error: Error) => void;
  private socket?: Socket;
  private pending: Waiting[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private closedByUs = false;

  constructor(readonly url: string) {}

  connect(): Promise<void> {
    const u = new URL(this.url);
    const port = u.port ? Number(u.port) : 6379;
    this.closedByUs = false;
    return new Promise((resolve, reject) => {
      const socket = u.protocol === 'rediss:' ? tlsConnect({ host: u.hostname, port, servername: u.hostname }) : tcpConnect({ host: u.hostname, port });
      this.socket = socket;
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 10_000);
      let opened = false;
      socket.once(u.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
        opened = true;
        this.connected = true;
        void this.handshake(u).then(() => { resolve(); this.onconnect?.(); }, (e: Error) => { reject(e); socket.destroy(e); });
      });
      socket.on('data', (d: Buffer) => this.receive(d));
      socket.on('error', (e) => { if (!opened) reject(e); this.onerror?.(e); });
      socket.on('close', () => {
        const wasOpen = this.connected;
        this.connected = false;
        const err = new Error('Connection closed');
        for (const w of this.pending.splice(0)) w.reject(err);
        this.buffered = Buffer.alloc(0);
        if (wasOpen) this.onclose?.(this.closedByUs ? undefined : err);
      });
    });
  }

  private async handshake(u: URL): Promise<void> {
    if (u.password) await this.send('AUTH', u.username ? [decodeURIComponent(u.username), decodeURIComponent(u.password)] : [decodeURIComponent(u.password)]);
    const db = u.pathname.length > 1 ? u.pathname.slice(1) : '';
    if (db !== '' && db !== '0') await this.send('SELECT', [db]);
  }

  send(command: string, args: readonly unknown[] = []): Promise<any> {
    if (!this.socket || !this.connected) return Promise.reject(new Error('Connection closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.socket!.write(encode(command, args));
    }).then((v) => { if (v instanceof Error) throw v; return v; });
  }

  private receive(d: Buffer): void {
    this.buffered = this.buffered.length === 0 ? d : Buffer.concat([this.buffered, d]);
    let pos = 0;
    for (;;) {
      if (pos >= this.buffered.length) break;
      let r: ReturnType<typeof parse>;
      try { r = parse(this.buffered, pos); } catch (e) { this.socket?.destroy(e as Error); return; }
      if (r === INCOMPLETE) break;
      pos = r[1];
      this.pending.shift()?.resolve(r[0]);
    }
    this.buffered = pos >= this.buffered.length ? Buffer.alloc(0) : this.buffered.subarray(pos);
  }

  get(key: string): Promise<string | null> { return this.send('GET', [key]); }
  smembers(key: string): Promise<string[]> { return this.send('SMEMBERS', [key]); }
  incr(key: string): Promise<number> { return this.send('INCR', [key]); }

  close(): void {
    this.closedByUs = true;
    this.socket?.destroy();
  }
}
