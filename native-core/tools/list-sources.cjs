// Lists every C++ translation unit under native-core/src for binding.gyp, so that adding a
// file never needs an edit of the build description (paths relative to native-core/).
const fs = require('fs');
const path = require('path');
const root = path.join(__dirname, '..');
const out = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.cpp')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
})(path.join(root, 'src'));
process.stdout.write(out.join('\n') + '\n');
