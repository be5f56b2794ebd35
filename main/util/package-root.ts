// Where the repository (or the installed package) is, whether the code runs compiled from dist/main or from main/
// under vitest: the bundled databases, the renderer and the calculation hosts are found from it.
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Repository (or package) root. */
export const PACKAGE_ROOT = here.split(sep).includes('dist')
  ? resolve(here, '..', '..', '..')
  : resolve(here, '..', '..');
