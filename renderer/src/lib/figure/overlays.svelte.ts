// What a figure shows over its own result: points read from a CSV file, and another finished task's result of the
// same kind (another database or another version) drawn dashed, the way a database is assessed against data.
import { api } from '../api.js';
import { loadResult, type AnyResult } from '../results.js';
import { OverlayCsvError, parseOverlayCsv, type OverlayPoints } from './overlay-csv.js';

export interface CompareResult<D> {
  id: number;
  /** "#12 Al-Zn (COST507)": the legend's name of the overlaid result */
  name: string;
  doc: D;
}

export interface CompareCandidate {
  id: number;
  name: string;
}

export class FigureOverlay<D extends AnyResult = AnyResult> {
  points = $state<OverlayPoints | null>(null);
  pointsFile = $state('');
  compare = $state<CompareResult<D> | null>(null);
  error = $state('');

  /** Reads points from a CSV file; a file that cannot be read leaves the points as they were and says why. */
  async readPoints(file: File): Promise<void> {
    try {
      this.points = parseOverlayCsv(await file.text());
      this.pointsFile = file.name;
      this.error = '';
    } catch (e) {
      if (!(e instanceof OverlayCsvError)) throw e;
      this.error = `${file.name}: ${e.message}`;
    }
  }

  /** Loads another task's result to draw beside this one. */
  async loadCompare(c: CompareCandidate, taskType: string): Promise<void> {
    try {
      const { doc } = await loadResult(c.id, taskType);
      this.compare = { id: c.id, name: c.name, doc: doc as D };
      this.error = '';
    } catch (e) {
      this.error = `task #${c.id}: ${(e as Error).message}`;
    }
  }

  clear(): void {
    this.points = null;
    this.pointsFile = '';
    this.compare = null;
    this.error = '';
  }
}

/** The completed tasks of a type, newest first, but `exclude` (the task on screen): what can be overlaid. */
export async function compareCandidates(taskType: string, exclude: number | null): Promise<CompareCandidate[]> {
  const list = await api.taskList(1, 100, 'desc', { status: ['completed'], task_type: [taskType] });
  return list.data
    .filter((t) => t.id !== exclude)
    .map((t) => ({ id: t.id, name: `#${t.id} ${t.title ?? ''}`.trim() + (t.tdb_code ? ` (${t.tdb_code})` : '') }));
}
