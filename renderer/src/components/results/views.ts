// The result view of each task type, as a type: a table keyed by the registry's task types, each slot a view of that
// type's result document (contract/tasks/registry.ts TaskResult). ResultView.svelte builds the table from its view
// components, so a registered type without a view, or a view of another type's document in its slot, does not
// compile (svelte-check in `npm run typecheck`; test/contract/registry.types.test.ts shows both), as the worker's
// calculation table (worker/protocol.ts CalculationTable) does for the calculations.
import type { Component } from 'svelte';
import type { TaskResult, TaskType } from '../../../../contract/tasks/registry.js';

/** The view component of each task type's result.json. */
export type ResultViewTable = { [T in TaskType]: Component<{ doc: TaskResult<T> }> };

/**
 * The view of a document: its task type's slot of the table. The table pairs each type with the view of that type's
 * document, so the view takes this document; TypeScript cannot follow that pairing through a union, hence the cast.
 */
export function viewOf<T extends TaskType>(
  views: ResultViewTable,
  doc: TaskResult<T>,
): Component<{ doc: TaskResult<T> }> {
  return views[doc.task_type as T] as unknown as Component<{ doc: TaskResult<T> }>;
}
