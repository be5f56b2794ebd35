// A network namespace for one test, joined to this machine by a veth pair of its own: 169.254.N.1 on this side,
// 169.254.N.2 inside (link-local addresses: traffic stays on that link, between this machine and the namespace the
// test made, never anywhere else). The test cuts the link (`ip link set down`) and restores it; it removes both at
// the end. Needs root and `ip netns`; netnsUnavailable says why not when they are missing.
import { execFileSync, spawnSync } from 'node:child_process';

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function probeNetns(): string | null {
  if (process.getuid?.() !== 0) return 'the partition test needs root (ip netns)';
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return `ip netns is unavailable: ${r.error?.message ?? r.stderr.trim()}`;
  // a namespace can be made here (a container without CAP_SYS_ADMIN cannot)
  const name = `pdprobe${process.pid}`;
  const add = spawnSync('ip', ['netns', 'add', name], { encoding: 'utf8' });
  if (add.status !== 0) return `ip netns add failed: ${add.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', name]);
  return null;
}

/** Why the partition test cannot run here, or null. */
export const netnsUnavailable: string | null = probeNetns();

export interface TestNetns {
  name: string;
  /** This machine's address on the link (the servers listen on it). */
  hostAddress: string;
  cut(): void;
  restore(): void;
  remove(): void;
}

export function makeNetns(): TestNetns {
  const n = 16 + (process.pid % 200);
  const name = `pdlab${process.pid}`;
  const outside = `pdh${process.pid}`.slice(0, 15);
  const inside = `pdn${process.pid}`.slice(0, 15);
  const hostAddress = `169.254.${n}.1`;
  ip('netns', 'add', name);
  try {
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
    ip('link', 'set', inside, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', outside);
    ip('link', 'set', outside, 'up');
    ip('-n', name, 'addr', 'add', `169.254.${n}.2/30`, 'dev', inside);
    ip('-n', name, 'link', 'set', inside, 'up');
    ip('-n', name, 'link', 'set', 'lo', 'up');
  } catch (e) {
    spawnSync('ip', ['link', 'del', outside]);
    spawnSync('ip', ['netns', 'del', name]);
    throw e;
  }
  return {
    name,
    hostAddress,
    cut: () => void ip('link', 'set', outside, 'down'),
    restore: () => void ip('link', 'set', outside, 'up'),
    remove() {
      spawnSync('ip', ['link', 'del', outside]);
      spawnSync('ip', ['netns', 'del', name]);
    },
  };
}
