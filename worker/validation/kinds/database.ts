// Kind "database": facts about reading a database. The parameter count after the phase-option B/F
// symmetry expansion (§5.5, any name containing "parameter_count"); elements (without VA and /-), phases,
// species, functions, number_of_elements / _phases / _species / _functions / _parameters (as stored), and
// the same restricted to what the case's components can form ("phases for components").
import { elementsOf } from '../../../contract/phases.js';
import { expandedParameterCount } from '../../core/models.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';

export const database: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const info = db.info();
  const elements = elementsOf(info.elements.map((e) => e.name));
  const comps = elementsOf(c.components);
  const facts: Record<string, () => unknown> = {
    elements: () => elements,
    phases: () => info.phases.map((p) => p.name),
    species: () => info.species.map((s) => s.name),
    functions: () => db.functionNames(),
    number_of_elements: () => elements.length,
    number_of_phases: () => info.phases.length,
    number_of_species: () => info.species.length,
    number_of_functions: () => db.functionNames().length,
    number_of_parameters: () => info.parameterCount,
    'phases for components': () => db.phasesFor(comps, true),
  };
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    if (/parameter_count/.test(q)) return { value: expandedParameterCount(db) };
    const f =
      facts[q.toLowerCase()] ??
      facts[q.toLowerCase().replace(/\s+/g, '_')] ??
      facts[q.toLowerCase().replace(/_/g, ' ')];
    return f ? { value: f() } : { value: null, unsupported: `database quantity ${e.quantity}` };
  });
};
