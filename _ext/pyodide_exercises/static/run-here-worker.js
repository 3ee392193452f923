/* The page's Python: Pyodide in a Web Worker, so that a running check never freezes the page
 * and a check that runs too long can be stopped (the page ends this worker and starts another).
 *
 * Messages in:  {type: "load", runtime, manifest, runner}   (URLs, all on this site; the
 *                manifest lists mha's wheel and its dependencies')
 *               {type: "run", id, cells, answer, check}
 * Messages out: {type: "progress", text, seconds} while loading (seconds since this worker
 *               started), {type: "loaded", seconds} or {type: "failed", error},
 *               {type: "result", id, reply}  (reply: what run_here.run returns)
 */
"use strict";

let ready = null;

function load({ runtime, manifest, runner }) {
  ready ??= (async () => {
    importScripts(runtime + "pyodide.js");
    const progress = (text) =>
      self.postMessage({ type: "progress", text, seconds: performance.now() / 1000 });
    progress("Starting Python…");
    const pyodide = await self.loadPyodide({ indexURL: runtime });
    progress("Loading NumPy and mha…");
    const { wheels } = await (await fetch(manifest)).json();
    const urls = wheels.map((wheel) => new URL(wheel, manifest).href);
    await pyodide.loadPackage(["numpy", ...urls], { messageCallback: () => {} });
    const source = await (await fetch(runner)).text();
    pyodide.FS.writeFile("/home/pyodide/run_here.py", source);
    progress("Importing the checks…");
    pyodide.runPython("import mha.checks");  // here, not in the first check
    return { pyodide, module: pyodide.pyimport("run_here") };
  })();
  return ready;
}

self.onmessage = async ({ data: message }) => {
  if (message.type === "load") {
    try {
      await load(message);
      self.postMessage({ type: "loaded", seconds: performance.now() / 1000 });
    } catch (error) {
      self.postMessage({ type: "failed", error: String(error) });
    }
    return;
  }
  if (message.type === "run") {
    const { pyodide, module } = await ready;
    const cells = pyodide.toPy(message.cells);
    let reply;
    try {
      const result = module.run(cells, message.answer, message.check);
      reply = result.toJs({ dict_converter: Object.fromEntries });
      result.destroy();
    } catch (error) {
      reply = { output: "", html: null, status: null, diagnosis: null, error: String(error) };
    } finally {
      cells.destroy();
    }
    self.postMessage({ type: "result", id: message.id, reply });
  }
};
