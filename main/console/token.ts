// Console token: the secret that guards the local console API (/console/v1: keys, databases, settings).
// The /api/v2 key authenticates a *user* of the contract; the console token authenticates the *owner of the
// data directory* (whoever can read <dataDir>/console-token), which is what the spec's "web console" needs.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONSOLE_HEADER = 'x-phasedesk-console';
const PREFIX = 'pdc_';

export function consoleTokenPath(dataDir: string): string {
  return join(dataDir, 'console-token');
}

/**
 * <dataDir>/console-token: "pdc_" + 64 hex characters (32 random bytes), created at first start with mode 0600.
 * A file that exists but does not hold a well-formed token (truncated, edited) is replaced: a weak or empty
 * token must never be accepted.
 */
export function loadOrCreateConsoleToken(dataDir: string): { token: string; created: boolean } {
  const p = consoleTokenPath(dataDir);
  if (existsSync(p)) {
    const t = readFileSync(p, 'utf8').trim();
    if (/^pdc_[0-9a-f]{64}$/.test(t)) {
      try {
        chmodSync(p, 0o600);
      } catch {
        /* e.g. read-only mount: keep going with the token as is */
      }
      return { token: t, created: false };
    }
  }
  const token = PREFIX + randomBytes(32).toString('hex');
  writeFileSync(p, token + '\n', { mode: 0o600 });
  chmodSync(p, 0o600); // writeFileSync's mode applies only when it creates the file
  return { token, created: true };
}

/**
 * Constant-time comparison. Both sides are hashed first so that timingSafeEqual always compares 32 bytes:
 * neither the length nor the content of the expected token leaks through timing.
 */
export function consoleTokenMatches(expected: string, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 1024) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(presented.trim(), 'utf8').digest();
  return timingSafeEqual(a, b);
}
