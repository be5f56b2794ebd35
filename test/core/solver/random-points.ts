// What the random-point checks of the solver share (global-minimum.test.ts, random-convergence.test.ts): the
// multicomponent databases at hand with the elements of the system each is checked in, and the random numbers.

/** Multicomponent databases with their elements (the larger ones: the subsystem of the alloy they serve). */
export const MULTICOMPONENT: [string, string[]][] = [
  ['alcrni.tdb', ['AL', 'CR', 'NI']],
  ['alnipt.tdb', ['AL', 'NI', 'PT']],
  ['crtiv_ghosh.tdb', ['CR', 'TI', 'V']],
  ['Cr-Fe-Ni_shallow_bcc.tdb', ['CR', 'FE', 'NI']],
  ['CrFeNb_Jacob2016.tdb', ['CR', 'FE', 'NB']],
  ['alcfe_b2.tdb', ['AL', 'C', 'FE']],
  ['alfeo.tdb', ['AL', 'FE', 'O']],
  ['femns.tdb', ['FE', 'MN', 'S']],
  ['issue43.tdb', ['AL', 'CR', 'NI']],
  ['sl_chen.tdb', ['A', 'B', 'C']],
  ['alcocrni.tdb', ['AL', 'CO', 'CR', 'NI']],
  ['pycalphad_inline_reciprocal.tdb', ['AL', 'C', 'CR', 'MO', 'NB', 'TA']],
  ['mc_fecocrnbti.tdb', ['FE', 'CO', 'CR', 'NB', 'TI']],
  ['COST507.tdb', ['AL', 'CU', 'FE', 'MG', 'MN', 'SI', 'ZN']],
];

/** Uniform numbers in (0, 1) from a linear congruential generator: the same sequence on every machine. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
}
