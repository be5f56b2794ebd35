// The commands that keep running (`start`, `server`, `worker`) end on SIGINT or SIGTERM: what they run is closed
// (running calculations finish or are cancelled as its close says), then the process exits 0.

/** Closes on the first SIGINT or SIGTERM and exits; returns -1, the exit code that keeps the command running. */
export function runUntilSignal(close: () => Promise<void>): number {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return -1;
}
