// One pass at a time of a task that looks for work (the scheduler's and the job queue's pump): a request while a
// pass runs makes exactly one more pass after it, however many requests came in between.
export class CoalescedRuns {
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (e: Error) => void,
  ) {}

  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pass()
      .catch((e) => this.onError(e as Error))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }

  /** No pass starts after this. */
  stop(): void {
    this.stopped = true;
  }
}
