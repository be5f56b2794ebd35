// A binary_cpt_diagram grid on the lab server runs as a BullMQ flow, so that its equilibria spread over every worker:
// the chunks of grid nodes are child jobs of the bisection's plan, which is a child of the merge job; BullMQ starts a
// parent once all its children completed. The plan (made when every chunk is stored) adds the bisection's parts as
// further children of the merge before it completes itself, so the merge waits for them too. The merge runs the embedded calculation with every equilibrium
// replayed from the stored stages (worker/calculations/binary_cpt_diagram/stage.ts), writes the files and completes the task,
// so the result files equal the embedded run's. Job ids are derived from the task, so the flow added twice (the job
// that adds it ran again) is the same flow.
import type { FlowProducer, Job, Queue } from 'bullmq';
import type { CptStage } from '../../worker/calculations/binary_cpt_diagram/stage.js';
import { TASK_QUEUE } from './redis.js';

/** Grid nodes per chunk job (PHASEDESK_CPT_CHUNK_NODES). */
export const DEFAULT_CHUNK_NODES = 1000;

/** A flow's chunk size from the environment variable `name` (an integer 1..1000000), else `fallback`. */
export function chunkSetting(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new Error(`${name} must be an integer between 1 and 1000000`);
  return n;
}

export function chunkNodes(): number {
  return chunkSetting('PHASEDESK_CPT_CHUNK_NODES', DEFAULT_CHUNK_NODES);
}

/** A job of a task's flow on the task queue: its id derived from the task, so a flow added twice is one flow. */
export function flowJob<D extends { uuid: string }>(name: string, data: D, jobId: string) {
  return { name, queueName: TASK_QUEUE, data, opts: { jobId, removeOnComplete: true, removeOnFail: 1000 } };
}

export interface CptStageJobData {
  uuid: string;
  stage: CptStage;
}

export function cptJobId(uuid: string, stage: Pick<CptStage, 'kind' | 'chunk'>): string {
  return `cpt-${uuid}-${stage.kind}${stage.kind === 'chunk' || stage.kind === 'bisect' ? `-${stage.chunk}` : ''}`;
}

/** Adds the flow of a grid of `nodes` nodes; returns the number of chunks. */
export async function addCptFlow(flows: FlowProducer, uuid: string, nodes: number, perChunk: number): Promise<number> {
  const chunks = Math.max(1, Math.ceil(nodes / perChunk));
  const job = (stage: CptStage) =>
    flowJob(`cpt-${stage.kind}`, { uuid, stage } satisfies CptStageJobData, cptJobId(uuid, stage));
  const children = Array.from({ length: chunks }, (_, k) =>
    job({ kind: 'chunk', chunks, chunk: k, first: k * perChunk, end: Math.min(nodes, (k + 1) * perChunk) }),
  );
  await flows.add({
    ...job({ kind: 'merge', chunks }),
    children: [{ ...job({ kind: 'bisect-plan', chunks }), children }],
  });
  return chunks;
}

/** Adds the bisection's parts (edge ranges) as children of the merge job that is the plan job's parent. */
export async function addBisectionParts(
  queue: Queue,
  plan: Job<CptStageJobData>,
  ranges: [number, number][],
): Promise<void> {
  const { uuid, stage } = plan.data;
  if (!plan.parent?.id) throw new Error(`job ${plan.id} has no parent merge job`);
  const parent = { id: plan.parent.id, queue: plan.parent.queueKey };
  await queue.addBulk(
    ranges.map(([first, end], k) => {
      const part: CptStage = { kind: 'bisect', chunks: stage.chunks, chunk: k, first, end };
      return {
        name: 'cpt-bisect',
        data: { uuid, stage: part },
        opts: { jobId: cptJobId(uuid, part), parent, removeOnComplete: true, removeOnFail: 1000 },
      };
    }),
  );
}
