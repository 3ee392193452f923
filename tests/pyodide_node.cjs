// Runs a Python file in Pyodide under Node.js, with the site's runtime and wheels, offline.
//   node tests/pyodide_node.cjs CONFIG.json
// CONFIG: {"runtime": folder of pyodide.js and NumPy's wheel, "wheels": [paths],
//          "mounts": [[folder here, path in Pyodide]], "script": path of a Python file}
// What the script prints goes to stdout; a Python error ends the process with status 1.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

async function main() {
  const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const { loadPyodide } = require(path.join(config.runtime, "pyodide.js"));
  const pyodide = await loadPyodide({
    indexURL: config.runtime + path.sep,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  await pyodide.loadPackage(["numpy", ...config.wheels], { messageCallback: () => {} });
  for (const [here, there] of config.mounts) {
    pyodide.FS.mkdirTree(there);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: here }, there);
  }
  await pyodide.runPythonAsync(fs.readFileSync(config.script, "utf8"));
}

main().catch((error) => {
  process.stderr.write(String(error && error.message ? error.message : error) + "\n");
  process.exit(1);
});
