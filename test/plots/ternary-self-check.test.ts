// A ternary section's preview says so when its self-check found point equilibria the map does not agree with (the
// map is not delivered as if complete); a section that agrees everywhere has no such line.
import { describe, expect, it } from 'vitest';
import { ternarySectionChart } from '../../worker/plots/ternary.js';

const section = (disagreements: number) => ({
  components: ['AL', 'CR', 'NI'] as [string, string, string],
  temperature: 1273,
  pressure: 101325,
  two_phase_regions: [],
  three_phase_triangles: [],
  single_phase_regions: [],
  critical_points: [],
  config: {},
  self_check: {
    points: 300,
    agree: 300 - disagreements,
    not_converged: 0,
    disagreements: Array.from({ length: disagreements }, () => ({
      x: { AL: 0.4556, CR: 0.541, NI: 0.0034 },
      found: ['BCC_B2', 'BCC_B2#2', 'BCC_B2#3'],
      mapped: ['BCC_B2', 'BCC_B2#2'],
    })),
    metastable_answers: 0,
    overlaps: [],
  },
});

describe('ternary section preview', () => {
  it('names the self-check disagreements under the title', () => {
    expect(ternarySectionChart(section(2))).toContain('self-check: 2 of 300 point equilibria disagree with this map');
    expect(ternarySectionChart(section(0))).not.toContain('self-check:');
  });
});
