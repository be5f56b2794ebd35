// The layers of the code and the one direction imports take between them, checked by dependency-cruiser in
// `npm test` (test/house/layers.test.ts). From the request to the core:
//
//   main:    entries (cli, electron, server.ts) -> api (routes) -> requests (zod-validated requests)
//            -> service / server (lab queue and workers) / console (admin commands) -> db -> util, config
//   worker:  entries (index, host, validation, audit-cli, audit-sections) -> calculations (one module per task type)
//            -> results (result documents and files) -> mapping -> scans -> system -> core, protocol
//            plots (SVG charts of result documents) sit beside results, below calculations
//   renderer: its own code and contract/ only; contract/: pure TypeScript that every layer imports
//
// A rule names what a layer may not import: the layers above it, and across main/worker/renderer.
/** @type {import('dependency-cruiser').IConfiguration} */

const WORKER_ENTRIES =
  '^worker/(index|host|host-png|host-png-child)\\.ts$|^worker/validation/|^worker/mapping/audit-(cli|sections)\\.ts$';

const layer = (name, from, notTo, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: from },
  to: { path: notTo },
});

module.exports = {
  forbidden: [
    layer(
      'contract-is-pure',
      '^contract/',
      '^(main|worker|renderer|bench|scripts)/',
      'contract/ imports only contract/',
    ),
    layer(
      'renderer-contract-only',
      '^renderer/',
      '^(main|worker|bench|scripts)/',
      'the renderer imports only contract/',
    ),
    layer(
      'worker-not-main',
      '^worker/',
      '^(main|renderer|bench|scripts)/',
      'worker/ never imports main/ or the renderer',
    ),
    layer(
      'core-is-lowest',
      '^worker/(core/|protocol\\.ts)',
      '^worker/(?!core/|protocol\\.ts)',
      'worker/core and worker/protocol.ts import only each other and contract/',
    ),
    layer(
      'system-below-scans',
      '^worker/system/',
      '^worker/(scans|mapping|results|plots|calculations|validation)/|' + WORKER_ENTRIES,
      'worker/system (the calculation system: database, components, phases, compositions, units) imports core only',
    ),
    layer(
      'scans-below-mapping',
      '^worker/scans/',
      '^worker/(mapping|results|plots|calculations|validation)/|' + WORKER_ENTRIES,
      'worker/scans (batches and T scans) never import mapping, results or calculations',
    ),
    layer(
      'mapping-below-results',
      '^worker/mapping/(?!audit-(cli|sections)\\.ts)',
      '^worker/(results|plots|calculations|validation)/|' + WORKER_ENTRIES,
      'worker/mapping never imports results, plots or calculations',
    ),
    layer(
      'plots-draw-documents',
      '^worker/plots/',
      '^worker/(?!plots/)',
      'worker/plots draw result documents (contract/ types) and import nothing else of worker/',
    ),
    layer(
      'results-below-calculations',
      '^worker/results/',
      '^worker/(calculations|validation)/|' + WORKER_ENTRIES,
      'worker/results never import calculations',
    ),
    {
      name: 'calculations-independent',
      severity: 'error',
      comment: "a calculation module never imports another task type's module: shared pieces live in a lower layer",
      from: { path: '^worker/calculations/([^/]+)\\.ts$' },
      to: { path: '^worker/calculations/', pathNot: '^worker/calculations/$1(/|\\.ts$)' },
    },
    {
      name: 'calculations-independent-parts',
      severity: 'error',
      comment: 'the parts of a calculation in its folder import only their own task type of worker/calculations',
      from: { path: '^worker/calculations/([^/]+)/' },
      to: { path: '^worker/calculations/', pathNot: '^worker/calculations/$1(/|\\.ts$)' },
    },
    layer(
      'calculations-below-entries',
      '^worker/calculations/',
      '^worker/validation/|' + WORKER_ENTRIES,
      'calculations never import the worker entries',
    ),
    layer(
      'db-lowest-in-main',
      '^main/db/',
      '^main/(?!db/|util/|config\\.ts)',
      'main/db imports only main/util and main/config',
    ),
    layer(
      'util-leaf',
      '^main/(util/|config\\.ts)',
      '^main/(?!util/|config\\.ts)',
      'main/util and main/config import nothing else of main/',
    ),
    layer(
      'requests-below-service',
      '^main/requests/',
      '^main/(?!requests/|util/|config\\.ts)',
      'main/requests (zod-validated requests) import only main/util, main/config and contract/',
    ),
    layer(
      'service-below-api',
      '^main/(service|server|console)/',
      '^main/(api/|cli/|cli\\.ts|electron/|server\\.ts)',
      'the service, the lab server and the console commands never import routes or entries',
    ),
    layer(
      'api-below-entries',
      '^main/api/',
      '^main/(cli/|cli\\.ts|electron/|server\\.ts)',
      'routes never import the entries',
    ),
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no cycles between modules (imports of types alone aside: they vanish from the compiled code)',
      from: { path: '^(contract|main|worker|renderer)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|renderer/dist|native-core)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.svelte', '.cts'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
