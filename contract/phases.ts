// Names of species and phases as every layer reads them: the elements of a component list, the phase of a
// composition-set label, and which phases are liquids.

/** Vacancies and the electron: components of sublattice models that carry no mass. */
export function isMassless(species: string): boolean {
  const s = species.toUpperCase();
  return s === 'VA' || s === '/-';
}

/** The mass-carrying elements of a component list, upper case, in order (VA and the electron left out). */
export function elementsOf(components: readonly string[]): string[] {
  return components.map((c) => c.toUpperCase()).filter((c) => !isMassless(c));
}

/** The phase of a composition-set label: FCC_A1#2 -> FCC_A1 (the second set of a miscibility gap). */
export function baseName(label: string): string {
  return label.replace(/#\d+$/, '');
}

/** Liquid phases by name: LIQUID, LIQ..., IONIC_LIQ (the mapper, the liquidus search and the validation runner). */
export function isLiquidName(name: string): boolean {
  return /^LIQ|LIQUID|^IONIC_LIQ/i.test(name);
}
