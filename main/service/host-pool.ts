// The calculation hosts of one process, one per pool slot (main/service/calc-host.ts): a host that ends (a crash, a
// kill, a planned stop) is replaced in its slot unless the pool is closing. Used by the embedded scheduler and by
// the lab server's workers.
import type { CalcHostSettings } from '../config.js';
import { CalcHost } from './calc-host.js';

export class HostPool {
  private readonly hosts: CalcHost[] = [];
  private closing = false;
  /** Hosts replaced so far (a crash, a kill, or recycleIfDue). */
  restarts = 0;

  /** `onReplaced`: a slot has a new host (the scheduler then looks for waiting tasks). */
  constructor(
    private readonly hostFile: string,
    private readonly settings: CalcHostSettings,
    size: number,
    private readonly log: (line: string) => void,
    private readonly onReplaced: () => void = () => {},
  ) {
    for (let i = 0; i < size; i++) this.hosts.push(this.newHost());
  }

  private newHost(): CalcHost {
    return new CalcHost(this.hostFile, this.settings, (host, how) => this.hostEnded(host, how));
  }

  /** A host ended (crash, kill, or a planned stop): its slot gets a new host unless the pool is closing. */
  private hostEnded(host: CalcHost, how: string): void {
    const i = this.hosts.indexOf(host);
    if (i < 0) return; // retired on purpose
    if (this.closing) return;
    this.log(`calculation process ${host.pid} ended (${how}); starting a new one`);
    const replace = () => {
      if (this.closing || this.hosts[i] !== host) return;
      this.hosts[i] = this.newHost();
      this.restarts++;
      this.onReplaced();
    };
    // A host that could not even start (a broken installation) is retried once a second, not in a busy loop.
    if (host.started) replace();
    else setTimeout(replace, 1000).unref();
  }

  /** Replaces a host that ran its share of tasks or grew too large (native memory is returned with the process). */
  recycleIfDue(host: CalcHost): void {
    const { maxTasks, maxRssMb } = this.settings;
    if (this.closing || host.exited || (host.tasksRun < maxTasks && host.rssMb <= maxRssMb)) return;
    const i = this.hosts.indexOf(host);
    if (i < 0) return;
    this.hosts[i] = this.newHost();
    this.restarts++;
    this.log(
      `calculation process ${host.pid} replaced after ${host.tasksRun} task(s), resident size ${Math.round(host.rssMb)} MB`,
    );
    void host.stop();
  }

  /** A host that is running and has no job, if there is one. */
  idle(): CalcHost | undefined {
    return this.hosts.find((h) => !h.busy && !h.exited);
  }

  /** Hosts running a calculation now. */
  busyCount(): number {
    return this.hosts.filter((h) => h.busy).length;
  }

  /** Process ids of the calculation hosts (for memory checks). */
  pids(): number[] {
    return this.hosts.map((h) => h.pid).filter((p): p is number => p !== undefined);
  }

  /** From now on no host is replaced. */
  retire(): void {
    this.closing = true;
  }

  /** Kills every host at once (their calculations end unfinished). */
  killAll(): void {
    for (const h of this.hosts) h.kill();
  }

  /** Ends every host; `killBusy`: a host still running a calculation is killed instead of asked to stop. */
  async stop(o: { killBusy?: boolean } = {}): Promise<void> {
    await Promise.all(this.hosts.map((h) => (o.killBusy && h.busy ? (h.kill(), h.stop(0)) : h.stop())));
  }
}
