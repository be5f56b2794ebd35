// The version of the calculation engine, recorded in every result.json (provenance.engine) and part of the
// calculation cache key, so that results of another engine version are never reused. The native core reports
// the same number (native-core/src/napi/addon.cpp coreVersion; test/contract/version.test.ts holds them equal).
export const ENGINE_NAME = 'phasedesk-core';
export const ENGINE_VERSION = '0.1.0';
/** The engine's tag in the calculation cache key: the API's engine name and the engine version. */
export const ENGINE_CACHE_TAG = `thermo_next/${ENGINE_VERSION}`;
