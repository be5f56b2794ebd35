// The DNS-rebinding guard of the listener (main/api/listener.ts): which Host headers name this service.
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST_RE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/i;

/**
 * Host header (RFC 9110 7.2: uri-host [":" port]) as name and port; null when it is not exactly that shape
 * (`[::1]evil.com`, `localhost:evil.com`, `localhost:`, a port above 65535, userinfo, spaces).
 */
export function parseHost(host: string | undefined): { name: string; port: number | null } | null {
  if (host === undefined) return null;
  const m = HOST_RE.exec(host);
  if (!m) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { name: m[1]!.toLowerCase(), port };
}

/**
 * DNS-rebinding guard: the Host header must name the loopback interface (any valid port) or, on a lab server, one
 * of the configured names (PHASEDESK_ALLOWED_HOSTS, lower case).
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[] = []): boolean {
  const h = parseHost(host);
  return h !== null && (LOOPBACK_NAMES.has(h.name) || allowed.includes(h.name));
}
