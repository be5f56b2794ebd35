// Preview of binary_cpt_diagram (worker/plots/sections.ts): panels per pressure, legend per phase set.
import { describe, expect, it } from 'vitest';
import { isobaricSections, phaseSetFill } from '../../worker/plots/sections.js';
import { pressureText } from '../../contract/plots/names.js';
import { isPng, svgToPng } from '../../worker/plots/png.js';

describe('isobaric sections preview', () => {
  const xs = [0, 0.5, 1],
    Ts = [300, 400];
  const base = { xLabel: 'Mole fraction B', xs, Ts, phaseSets: ['A', 'A+B', 'B'] };
  it('draws one panel per pressure and a legend entry per phase set met (not converged included)', () => {
    const svg = isobaricSections({
      ...base,
      title: 'A-B',
      sections: [
        { P: 1e5, labels: [0, 1, 2, 0, 1, 2], boundary: [{ x: 0.25, T: 300 }], tielines: [{ T: 300, x: [0.1, 0.9] }] },
        { P: 1e9, labels: [0, -1, 2, 0, 0, 2] },
      ],
    });
    expect(svg).toContain('P = 1 bar');
    expect(svg).toContain('P = 1 GPa');
    for (const name of ['>A<', '>A+B<', '>B<', '>not converged<']) expect(svg).toContain(name);
    expect(svg).toContain(phaseSetFill(1));
    expect(isPng(svgToPng(svg, { width: 600 }))).toBe(true);
  });
  it('refuses a section whose label count does not match the grid', () => {
    expect(() => isobaricSections({ ...base, sections: [{ P: 1e5, labels: [0, 1] }] })).toThrow(
      /2 labels for 3 x 2 nodes/,
    );
  });
  it('formats pressures with SI prefixes', () => {
    expect(pressureText(101325)).toBe('1 atm');
    expect(pressureText(1e5)).toBe('1 bar');
    expect(pressureText(2e5)).toBe('200 kPa');
    expect(pressureText(5e6)).toBe('5 MPa');
    expect(pressureText(10)).toBe('10 Pa');
  });
});
