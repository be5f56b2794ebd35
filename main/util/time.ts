/** RFC 3339 time used in key and database records. */
export function rfc3339(d: Date = new Date()): string {
  return d.toISOString();
}

/** Task timestamps: 'YYYY-MM-DD HH:MM:SS UTC' as the spec's TaskStatusResponse shows. */
export function taskTime(d: Date = new Date()): string {
  return d.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

export function isPast(t: string | null | undefined, now = Date.now()): boolean {
  if (!t) return false;
  const ms = Date.parse(t);
  return Number.isFinite(ms) && ms <= now;
}
