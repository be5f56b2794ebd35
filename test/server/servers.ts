// The real servers of the lab-server tests (shared with `npm run bench:server`, so compiled with the benchmarks).
export * from '../../bench/lab-servers.js';
