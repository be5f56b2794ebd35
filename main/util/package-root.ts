// The repository's (or the installed package's) root, whether the code runs compiled from dist/main or from main/
// under vitest: the bundled databases, the renderer's build and the compiled worker are found from it.
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** main/util -> the root: two folders up from main/util, three from dist/main/util. */
export const PACKAGE_ROOT = here.split(sep).includes('dist')
  ? resolve(here, '..', '..', '..')
  : resolve(here, '..', '..');
