// The display names a result view writes for phases (contract/plots/phase-names.ts): ResultView loads the names of
// the result's database once and gives them to its view through a Svelte context; a view without it (or a database
// the service no longer lists) uses the defaults of the database's family.
import { getContext } from 'svelte';
import { api } from './api.js';
import {
  displayFieldLabel,
  displayReaction,
  namerFor,
  type DisplayNamer,
} from '../../../contract/plots/phase-names.js';

/** Svelte context key under which a result view gives a getter of its database's display names. */
export const PHASE_NAMES_CONTEXT = 'phasedesk-phase-names';

/** The display names of the database with catalog code `code`: its stored names, or the defaults when unavailable. */
export async function loadNamer(code: string | null | undefined): Promise<DisplayNamer> {
  if (!code) return namerFor(code);
  try {
    const list = await api.databases({ search: code, size: 100 });
    const db = list.items.find((d) => d.code === code);
    return db ? namerFor(code, (await api.phaseNames(db.id)).names) : namerFor(code);
  } catch {
    return namerFor(code);
  }
}

/** In a result view: functions that name a field label and a reaction with the current display names. */
export function usePhaseNames(): {
  field: (label: string) => string;
  parts: (labels: readonly string[]) => string[];
  reaction: (text: string) => string;
} {
  const get = getContext<(() => DisplayNamer) | undefined>(PHASE_NAMES_CONTEXT) ?? (() => namerFor(null));
  return {
    field: (label) => displayFieldLabel(label, get()),
    // the phases of one field or invariant, each by its name (set numbers kept only where two share a name)
    parts: (labels) => displayFieldLabel(labels.join(' + '), get()).split(' + '),
    reaction: (text) => displayReaction(text, get()),
  };
}
