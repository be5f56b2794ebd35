// Web-console operations, callable by the CLI (main/cli.ts) and later by the renderer.
export * from './users.js';
export * from './keys.js';
export * from './databases.js';
export { bootstrapIfEmpty, syncCatalog } from './bootstrap.js';
