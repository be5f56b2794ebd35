// A background pass every `ms` that never overlaps itself: a pass still running when the next is due (a probe
// waiting out its deadline on a silent server) makes that one be skipped, not queued.

/** Runs `pass` every `ms` (the timer does not keep the process alive); returns the timer to clear. */
export function repeatWithoutOverlap(ms: number, pass: () => Promise<unknown>): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void pass().finally(() => {
      running = false;
    });
  }, ms);
  timer.unref();
  return timer;
}
