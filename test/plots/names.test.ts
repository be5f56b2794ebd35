// How figures name elements, systems, pressures and alloys (contract/plots/names.ts).
import { describe, expect, it } from 'vitest';
import { alloyName, elementSymbol, pressureText, systemName } from '../../contract/plots/names.js';

describe('names in figures', () => {
  it('element symbols in their proper case; names that are no symbol as they are', () => {
    expect(['FE', 'C', 'ZN', 'UUO', 'VA', 'Fe', 'FCC_A1'].map(elementSymbol)).toEqual([
      'Fe',
      'C',
      'Zn',
      'Uuo',
      'VA',
      'Fe',
      'FCC_A1',
    ]);
    expect(systemName(['FE', 'CR', 'NI'])).toBe('Fe-Cr-Ni');
  });

  it('pressures: 1 atm and 1 bar by name, else the prefix that keeps them short', () => {
    expect([101325, 1e5, 2.5e9, 5e6, 12000, 10].map(pressureText)).toEqual([
      '1 atm',
      '1 bar',
      '2.5 GPa',
      '5 MPa',
      '12 kPa',
      '10 Pa',
    ]);
  });

  it('an alloy: the balance first, then percents largest first, with the unit', () => {
    expect(alloyName({ AL: 0.951, CU: 0.044, SI: 0.005 }, 'mass')).toBe('Al-4.4Cu-0.5Si (mass %)');
    expect(alloyName({ FE: 0.74, CR: 0.18, NI: 0.08, C: 0 }, 'mole')).toBe('Fe-18Cr-8Ni (at. %)');
    expect(alloyName({}, 'mole')).toBe('');
  });
});
