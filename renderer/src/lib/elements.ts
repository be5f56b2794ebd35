// Periodic-table layout for the element picker: symbol → [period (row), group (column)].
// Lanthanides/actinides are shown in rows 8/9 as in the usual 18-column table.
const ROWS: string[][] = [
  ['H', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', 'He'],
  ['Li', 'Be', '', '', '', '', '', '', '', '', '', '', 'B', 'C', 'N', 'O', 'F', 'Ne'],
  ['Na', 'Mg', '', '', '', '', '', '', '', '', '', '', 'Al', 'Si', 'P', 'S', 'Cl', 'Ar'],
  ['K', 'Ca', 'Sc', 'Ti', 'V', 'Cr', 'Mn', 'Fe', 'Co', 'Ni', 'Cu', 'Zn', 'Ga', 'Ge', 'As', 'Se', 'Br', 'Kr'],
  ['Rb', 'Sr', 'Y', 'Zr', 'Nb', 'Mo', 'Tc', 'Ru', 'Rh', 'Pd', 'Ag', 'Cd', 'In', 'Sn', 'Sb', 'Te', 'I', 'Xe'],
  ['Cs', 'Ba', '', 'Hf', 'Ta', 'W', 'Re', 'Os', 'Ir', 'Pt', 'Au', 'Hg', 'Tl', 'Pb', 'Bi', 'Po', 'At', 'Rn'],
  ['Fr', 'Ra', '', 'Rf', 'Db', 'Sg', 'Bh', 'Hs', 'Mt', 'Ds', 'Rg', 'Cn', 'Nh', 'Fl', 'Mc', 'Lv', 'Ts', 'Og'],
  ['', '', 'La', 'Ce', 'Pr', 'Nd', 'Pm', 'Sm', 'Eu', 'Gd', 'Tb', 'Dy', 'Ho', 'Er', 'Tm', 'Yb', 'Lu', ''],
  ['', '', 'Ac', 'Th', 'Pa', 'U', 'Np', 'Pu', 'Am', 'Cm', 'Bk', 'Cf', 'Es', 'Fm', 'Md', 'No', 'Lr', ''],
];

export interface Cell {
  symbol: string;
  row: number;
  col: number;
}
export const TABLE: Cell[] = ROWS.flatMap((r, i) =>
  r.map((s, j) => ({ symbol: s, row: i + 1 + (i >= 7 ? 1 : 0), col: j + 1 })),
).filter((c) => c.symbol !== '');
const KNOWN = new Map(TABLE.map((c) => [c.symbol.toUpperCase(), c.symbol]));

/** TDB files write elements in upper case (AL, ZN); the table uses chemical case. */
export function canonical(el: string): string {
  return KNOWN.get(el.toUpperCase()) ?? el;
}
/** Species in element_list that are not chemical elements (VA vacancy, /- electron). */
export function isPseudo(el: string): boolean {
  return !KNOWN.has(el.toUpperCase());
}
