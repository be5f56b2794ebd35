// Lists the C++ translation units under native-core/src for binding.gyp and the Makefile, so that adding a
// file never needs an edit of the build description (paths relative to native-core/). Groups:
//   engine    the calculation core (io/, models/, solver/ without solver/testing/): a static library
//   bindings  the Node-API layer (napi/): with the engine, the production addon phasedesk_core.node
//   testing   solver/testing/: with the engine, phasedesk_core_testing.node, loaded by tests only; the
//             production addon contains no test code
// Without an argument: engine and bindings (the production addon).
const fs = require('fs');
const path = require('path');
const root = path.join(__dirname, '..');
const all = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.cpp')) all.push(path.relative(root, full).split(path.sep).join('/'));
  }
})(path.join(root, 'src'));
const isTesting = (f) => f.startsWith('src/solver/testing/');
const isBinding = (f) => f.startsWith('src/napi/');
const groups = {
  engine: all.filter((f) => !isTesting(f) && !isBinding(f)),
  bindings: all.filter(isBinding),
  testing: all.filter(isTesting),
};
const wanted = process.argv[2];
if (wanted !== undefined && !(wanted in groups)) {
  process.stderr.write(`list-sources: unknown group '${wanted}' (engine, bindings, testing)\n`);
  process.exit(1);
}
const out = wanted === undefined ? [...groups.engine, ...groups.bindings] : groups[wanted];
process.stdout.write(out.join('\n') + '\n');
