// The shared material (../shared beside the repository: databases, validation cases). It is test
// input that lives outside the repository and must not be copied in; PHASEDESK_SHARED_DIR
// overrides the location.
import path from 'node:path';

export const SHARED_DIR = process.env.PHASEDESK_SHARED_DIR ?? path.resolve(__dirname, '../../../shared');
export const SHARED_TDB_DIR = process.env.PHASEDESK_TDB_DIR ?? path.join(SHARED_DIR, 'tdb');
export const SHARED_CASES = path.join(SHARED_DIR, 'validation', 'cases.json');
