// The bookkeeping every stage of a map shares (core/skeleton.ts): the point equilibria run and how many did not
// converge, the cancel flag (checked before every equilibrium and every chunk), the safety budget of equilibria and
// the log lines that tell what the map could not do. One ledger per map; the result's statistics are read from it.
import { CancelledError } from '../../protocol.js';

/** Thrown when the equilibrium budget of a map is used up (the caller logs what is left undone). */
export class BudgetExceeded extends Error {}

export class MapLedger {
  /** point equilibria run (every result read, retries included) and how many of them did not converge */
  equilibria = 0;
  notConverged = 0;
  readonly logs: string[] = [];
  /** when the map started (performance.now(), ms) */
  readonly started = performance.now();

  constructor(
    private readonly control?: { readonly cancelled: boolean },
    private readonly onLog?: (line: string) => void,
  ) {}

  checkCancel(): void {
    if (this.control?.cancelled) throw new CancelledError();
  }

  log(line: string): void {
    this.logs.push(line);
    this.onLog?.(line);
  }

  /** One equilibrium read: counted, and counted as not converged when it is not. */
  count(converged: boolean): void {
    this.equilibria++;
    if (!converged) this.notConverged++;
  }

  /** Seconds since the map started. */
  seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}
