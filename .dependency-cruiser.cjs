// Placeholder replaced in the layering commit.
module.exports = { forbidden: [], options: { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' } } };
