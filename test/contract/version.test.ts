// The engine version is defined once (contract/version.ts); the native core states the same number, and every
// result.json and the calculation cache key use it.
import { describe, expect, it } from 'vitest';
import { ENGINE_NAME } from '../../contract/results/common.js';
import { ENGINE_CACHE_TAG, ENGINE_VERSION } from '../../contract/version.js';
import { loadCore } from '../../worker/core/native.js';
import { getEngineVersion, provenance } from '../../worker/results/common.js';
import { ENGINE_VERSION as CACHE_ENGINE } from '../../main/service/calc-cache.js';
import { TDB } from '../service/helpers.js';

describe('engine version', () => {
  it('the native core reports the contract version', () => {
    expect(loadCore().coreVersion).toBe(ENGINE_VERSION);
  });

  it('provenance and the cache key carry it', () => {
    expect(getEngineVersion()).toBe(ENGINE_VERSION);
    expect(provenance(TDB, null).engine).toEqual({ name: ENGINE_NAME, version: ENGINE_VERSION });
    expect(CACHE_ENGINE).toBe(ENGINE_CACHE_TAG);
    expect(ENGINE_CACHE_TAG.endsWith(`/${ENGINE_VERSION}`)).toBe(true);
  });
});
