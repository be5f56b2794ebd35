// Display names of phases (contract/plots/phase-names.ts): defaults per database family, stored names over them,
// ordering states, and set numbers only where two sets of one phase share a field.
import { describe, expect, it } from 'vitest';
import {
  databaseFamily,
  defaultDisplayName,
  displayFieldLabel,
  displayReaction,
  formulaName,
  namerFor,
  parseLabelPart,
} from '../../contract/plots/phase-names.js';
import { dejaVuMeasure } from '../../contract/plots/labels.js';

describe('phase display names', () => {
  it('families of the bundled databases', () => {
    expect(['MF_STEEL', 'MC_FE_V2.059', 'MC_AL_V2.032', 'COST507', 'CUNI_MEY1992', null].map(databaseFamily)).toEqual([
      'steel',
      'steel',
      'aluminium',
      'aluminium',
      'general',
      'general',
    ]);
  });

  it('steel defaults: Greek letters for the iron solutions, Fe₃C, γ′ for the L12 state, L for the liquid', () => {
    const d = (p: string, s?: string) => defaultDisplayName(p, 'steel', s);
    expect([d('FCC_A1'), d('BCC_A2'), d('HCP_A3'), d('LIQUID'), d('CEMENTITE'), d('CEMENTITE_D011')]).toEqual([
      'γ',
      'α',
      'ε',
      'L',
      'Fe₃C',
      'Fe₃C',
    ]);
    expect([d('FCC_L12', 'L12'), d('FCC_L12', 'A1'), d('BCC_B2', 'B2'), d('BCC_B2', 'A2')]).toEqual([
      'γ′',
      'γ',
      'B2',
      'α',
    ]);
    expect([d('M23C6'), d('M7C3_D101'), d('SIGMA_D8B'), d('MU_PHASE')]).toEqual(['M₂₃C₆', 'M₇C₃', 'σ', 'μ']);
  });

  it('aluminium and general defaults name the lattice; other databases keep a readable name', () => {
    expect(defaultDisplayName('FCC_A1', 'aluminium')).toBe('α-Al');
    expect(defaultDisplayName('FCC_A1', 'general')).toBe('fcc (A1)');
    expect(defaultDisplayName('HCP_A3', 'general')).toBe('hcp (A3)');
    expect(defaultDisplayName('FCC_L12', 'general', 'L12')).toBe('L1₂');
    expect(defaultDisplayName('BCC_4SL', 'general', 'ordered')).toBe('BCC_4SL (ordered)');
    expect(defaultDisplayName('THETA_AL2CU', 'aluminium')).toBe('θ (Al₂Cu)');
    expect(defaultDisplayName('CR3SI_A15', 'general')).toBe('Cr₃Si (A15)');
    expect(defaultDisplayName('ALCU_THETA', 'aluminium')).toBe('θ (Al₂Cu)');
    expect(defaultDisplayName('SPHASE', 'aluminium')).toBe('S (Al₂CuMg)');
    expect(defaultDisplayName('ALCU_THETA', 'general')).toBe('ALCU_THETA');
  });

  it('formulae: element symbols with subscripts, only where the name reads as one without doubt', () => {
    expect(['AL13FE4', 'M23C6', 'ALN', 'B4C', 'SIGMA', 'GAS', 'CUB', 'AL2CU_C16'].map(formulaName)).toEqual([
      'Al₁₃Fe₄',
      'M₂₃C₆',
      null,
      'B₄C',
      null,
      null,
      null,
      null,
    ]);
  });

  it('parses set and state labels as the mapping writes them', () => {
    expect(parseLabelPart('FCC_A1#2')).toEqual({ phase: 'FCC_A1', set: 2 });
    expect(parseLabelPart('L12 (FCC_L12)')).toEqual({ phase: 'FCC_L12', structure: 'L12', set: 1 });
    expect(parseLabelPart('B2 (B2)#2')).toEqual({ phase: 'B2', structure: 'B2', set: 2 });
    expect(parseLabelPart('BCC_4SL (ordered)')).toEqual({ phase: 'BCC_4SL', structure: 'ordered', set: 1 });
  });

  it('a field label keeps a set number only where two sets with one name share the field', () => {
    const steel = namerFor('MF_STEEL');
    expect(displayFieldLabel('BCC_A2#2', steel)).toBe('α');
    expect(displayFieldLabel('LIQUID + FCC_A1#2', steel)).toBe('L + γ');
    expect(displayFieldLabel('BCC_A2 + BCC_A2#2', steel)).toBe('α + α#2');
    expect(displayFieldLabel('B2 (B2) + L12 (L12_FCC) + A1 (L12_FCC)', steel)).toBe('B2 + γ′ + γ');
    expect(displayFieldLabel('A2 (B2) + B2 (B2) + B2 (B2)#2', steel)).toBe('α + B2 + B2#2');
  });

  it("a database's stored names take precedence over the defaults, state by state", () => {
    const namer = namerFor('MF_STEEL', { FCC_A1: 'austenite', 'FCC_L12:L12': 'Ni₃Al' });
    expect(displayFieldLabel('FCC_A1 + L12 (FCC_L12) + A1 (FCC_L12)', namer)).toBe('austenite + Ni₃Al + γ');
    expect(displayReaction('LIQUID -> FCC_A1 + CEMENTITE', namer)).toBe('L -> austenite + Fe₃C');
    expect(displayReaction('FCC_A1#2 -> FCC_A1 + BCC_A2', namer)).toBe('austenite#2 -> austenite + α');
  });

  it('label boxes measure the Greek letters, the prime and subscripts by their DejaVu widths (hmtx, 1/1000 em)', () => {
    // γ 592 + ′ 227 regular; a subscript digit 401 regular, 438 bold
    expect(dejaVuMeasure('γ′', 10).width).toBeCloseTo(8.19, 10);
    expect(dejaVuMeasure('Fe₃C', 10).width - dejaVuMeasure('FeC', 10).width).toBeCloseTo(4.01, 10);
    expect(dejaVuMeasure('Fe₃C', 10, true).width - dejaVuMeasure('FeC', 10, true).width).toBeCloseTo(4.38, 10);
  });
});
