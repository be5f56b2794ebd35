// kawin's databases (thermodynamics with mobility data, ../shared/tdb) imported into a test fixture's service.
import { join } from 'node:path';
import { registerDatabase, subscribe } from '../../main/console/databases.js';
import type { Fixture } from '../service/helpers.js';
import { SHARED_TDB_DIR } from './shared.js';

/** kawin's Al-Sc-Zr database (with its mobility data) imported as ALSCZR and subscribed for user a of a fixture. */
export async function importAlScZr(f: Fixture): Promise<void> {
  await registerDatabase(
    f.svc.store,
    f.dataDir,
    join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb'),
    { code: 'ALSCZR', name: 'Al-Sc-Zr (kawin)', level: 'free', type: 'alloy', version: '1' },
    { element_list: ['AL', 'SC', 'ZR', 'VA'], phase_list: ['AL3SC', 'AL3ZR', 'FCC_A1'] },
  );
  await subscribe(f.svc.store, { username: 'a', code: 'ALSCZR', status: 'active' });
}
