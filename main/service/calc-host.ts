// The service's side of a calculation host (worker/host.ts): one child process per pool slot, talked to
// over the IPC channel of child_process.fork (also in Electron, which forks in node mode). A host that
// dies rejects the job it was running with a CalculationProcessCrash; the scheduler replaces it.
import { fork, type ChildProcess } from 'node:child_process';
import type { CalcHostSettings } from '../config.js';
import type { HostJob, HostReport, HostRequest, HostSettings, JobOutput } from '../../worker/protocol.js';

export type HostOutput = JobOutput;
export interface HostProgress {
  progress: number;
  stage: string | null;
}

export class CalculationProcessCrash extends Error {
  constructor(
    readonly how: string,
    detail?: string,
  ) {
    super(`the calculation process crashed (${how}); the service is unaffected${detail ? ` [${detail}]` : ''}`);
    this.name = 'CalculationProcessCrash';
  }
}

interface Current {
  resolve(o: HostOutput): void;
  reject(e: Error): void;
  onProgress(p: HostProgress): void;
}

export class CalcHost {
  readonly child: ChildProcess;
  /** Tasks this host has run (it is replaced after settings.maxTasks). */
  tasksRun = 0;
  /** Resident size reported with the last result, MB. */
  rssMb = 0;
  busy = false;
  exited = false;
  /** The host reported ready (a host that ends before that could not start at all). */
  started = false;
  private readonly ready: Promise<void>;
  private current?: Current;
  private stderrTail = '';
  private readonly exitWaiters: (() => void)[] = [];

  constructor(hostFile: string, settings: CalcHostSettings, onExit: (host: CalcHost, how: string) => void) {
    const hostSettings: HostSettings = {
      heapMb: settings.heapMb,
      previewTimeoutSeconds: settings.previewTimeoutSeconds,
    };
    this.child = fork(hostFile, [], {
      // No inherited flags (test runners' loaders); Electron runs the script as plain Node.
      execArgv: [],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', PHASEDESK_HOST_SETTINGS: JSON.stringify(hostSettings) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // The last lines of stderr say what a native crash was (a Rust panic, a V8 fatal error).
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderrTail = (this.stderrTail + d).slice(-2000);
    });
    let readyResolve!: () => void;
    this.ready = new Promise((r) => {
      readyResolve = r;
    });
    this.child.on('message', (m: HostReport) => {
      if (m.type === 'ready') {
        this.started = true;
        readyResolve();
      } else if (m.type === 'progress') this.current?.onProgress({ progress: m.progress, stage: m.stage });
      else if (m.type === 'done' || m.type === 'failed') {
        const c = this.current;
        this.current = undefined;
        this.busy = false;
        this.rssMb = m.rssMb;
        if (m.type === 'done') c?.resolve(m.output);
        else c?.reject(new Error(m.message));
      }
    });
    this.child.on('error', () => {
      /* reported by exit */
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const c = this.current;
      this.current = undefined;
      this.busy = false;
      const last = this.stderrTail
        .trim()
        .split('\n')
        .filter((l) => /panic|fatal|error|abort/i.test(l))
        .pop()
        ?.trim();
      c?.reject(new CalculationProcessCrash(how, last));
      readyResolve();
      for (const w of this.exitWaiters.splice(0)) w();
      onExit(this, how);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs one job; progress reports arrive through onProgress until the promise settles. */
  async run(job: HostJob, onProgress: (p: HostProgress) => void): Promise<HostOutput> {
    this.busy = true;
    this.cancelBeforeStart = false;
    this.tasksRun++;
    await this.ready;
    if (this.exited) {
      this.busy = false;
      throw new CalculationProcessCrash('it had ended before the task started');
    }
    return new Promise<HostOutput>((resolve, reject) => {
      this.current = { resolve, reject, onProgress };
      this.send({ type: 'run', job });
      // A cancel that came while the host was still starting follows the job (IPC keeps the order).
      if (this.cancelBeforeStart) this.send({ type: 'cancel' });
      this.cancelBeforeStart = false;
    });
  }

  private cancelBeforeStart = false;

  /** Raises the cancel flag of the running job (the host's main thread sets it at once). */
  cancel(): void {
    if (this.current) this.send({ type: 'cancel' });
    else if (this.busy) this.cancelBeforeStart = true;
  }

  private send(m: HostRequest): void {
    if (!this.exited && this.child.connected)
      this.child.send(m, (e) => {
        if (e) {
          /* the exit handler reports a dead host */
        }
      });
  }

  /** Asks the host to end; kills it if it has not ended after graceMs. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.exited) return;
    const ended = new Promise<void>((r) => this.exitWaiters.push(r));
    this.send({ type: 'stop' });
    const t = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await ended;
    clearTimeout(t);
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
