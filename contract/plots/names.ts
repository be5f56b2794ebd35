// How figures name what the database spells in capitals: element symbols in their proper case (FE -> Fe, ZN -> Zn,
// "Fe-C", "Mole fraction Zn"), and pressures in a readable unit (1 atm, 1 bar, 2.5 GPa). Tables, CSV columns and
// result.json keep the database's spelling (x(ZN)): a script matches names there, a reader's eye the figures.

/** An element symbol in its proper case: one capital and a lower-case letter or two (FE -> Fe); other names as they are. */
export function elementSymbol(el: string): string {
  return /^[A-Z][A-Z]{0,2}$/.test(el) && el !== 'VA' ? el[0] + el.slice(1).toLowerCase() : el;
}

/** A system's name as figures write it: "Fe-C", "Al-Cu-Mg-Si". */
export function systemName(elements: readonly string[]): string {
  return elements.map(elementSymbol).join('-');
}

/** A pressure as a reader writes it: 1 atm and 1 bar by name, else Pa with the prefix that keeps it short. */
export function pressureText(P: number): string {
  if (P === 101325) return '1 atm';
  if (P === 1e5) return '1 bar';
  const short = (v: number) => String(Number(v.toPrecision(4)));
  if (P >= 1e9) return `${short(P / 1e9)} GPa`;
  if (P >= 1e6) return `${short(P / 1e6)} MPa`;
  if (P >= 1e3) return `${short(P / 1e3)} kPa`;
  return `${short(P)} Pa`;
}
