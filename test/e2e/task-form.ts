// Driving the New task form of a signed-in page against a real service, for the e2e tests that compute through it
// (day-one.e2e.ts, units-ranges.e2e.ts): pick components, find a composition input, open the form on a database,
// submit and wait for the task and its result.json.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, type Service } from './harness.js';

export interface TaskFormDriver {
  /** Exactly these components, in this order (the form keeps the components of the last task). */
  pick(els: string[]): Promise<void>;
  /** The composition input of one component (the balance, the first picked, is computed). */
  fraction(field: string, el: string): ReturnType<Page['locator']>;
  /** The database id of a catalog code. */
  idOf(code: string): string;
  newTask(type: string, code: string, title: string, components: string[]): Promise<void>;
  /** Submits the form and waits for the task: its id, record, result summary and result.json. */
  submitAndWait(): Promise<{ id: number; task: any; result: string; doc: any }>;
}

export function taskForm(
  page: () => Page,
  svc: () => Service,
  rendererUrl: () => string,
  dbs: () => { id: string; code: string }[],
): TaskFormDriver {
  const d: TaskFormDriver = {
    async pick(els) {
      const on = page().locator('#f-components button[aria-pressed="true"]');
      while ((await on.count()) > 0) await on.first().click();
      for (const el of els) await page().locator(`#f-components button[data-element="${el}"]`).click();
    },
    fraction: (field, el) =>
      page().locator(
        `#${field} label.comp:has(span:text-is("w(${el})"), span:text-is("x(${el})")) input[type="number"]`,
      ),
    idOf: (code) => dbs().find((x) => x.code === code)!.id,
    async newTask(type, code, title, components) {
      await page().goto(`${rendererUrl()}#/new`);
      await page().getByTestId('task-form').waitFor();
      await page().selectOption('#task-type', type);
      await page().selectOption('#f-tdb_code', d.idOf(code));
      await page().fill('#f-title', title);
      await d.pick(components);
    },
    async submitAndWait() {
      await page().getByRole('button', { name: 'Submit task' }).click();
      const created = page().getByTestId('created');
      await created.waitFor({ timeout: 30_000 });
      const id = Number(/#(\d+)/.exec(await created.innerText())![1]);
      let t: any;
      for (let i = 0; i < 600; i++) {
        t = (await apiCall<any>(svc(), 'GET', `/task/${id}`)).json;
        if (['completed', 'failed', 'aborted'].includes(t.status)) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(t.status, t.logs).toBe('completed');
      const files = (await apiCall<{ files: string[] }>(svc(), 'GET', `/task/${id}/result`)).json.files;
      const doc = await (await fetch(files.find((u) => u.includes('result.json'))!)).json();
      return { id, task: t, result: t.result, doc };
    },
  };
  return d;
}
