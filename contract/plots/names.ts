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

/**
 * An alloy as metallurgists write it: the balance element (the largest fraction) first, then each other element's
 * percent and symbol, largest first, with the unit: "Al-4.4Cu-0.5Si (mass %)", "Fe-18Cr-8Ni (at. %)".
 */
export function alloyName(fractions: Record<string, number>, unit: 'mass' | 'mole'): string {
  const parts = Object.entries(fractions)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  if (parts.length === 0) return '';
  const [balance, ...rest] = parts;
  const pct = (v: number) => String(Number((100 * v).toPrecision(3)));
  const name = [elementSymbol(balance![0]), ...rest.map(([e, v]) => `${pct(v)}${elementSymbol(e)}`)].join('-');
  return `${name} (${unit === 'mass' ? 'mass %' : 'at. %'})`;
}
