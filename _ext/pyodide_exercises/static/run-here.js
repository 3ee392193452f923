/* "Run here": edit an exercise's code in the page and run its check in the page's Python.
 *
 * The build (_ext/pyodide_exercises) puts a placeholder <div class="mha-run-here"
 * data-label="ex-..."> after each check cell it can run here, and the chapter's code cells as
 * JSON in <script id="mha-run-here-data">. Python (Pyodide, in run-here-worker.js) starts on
 * the first click, once per page. Each run sends the chapter's cells, every exercise's answer
 * replaced by what the reader wrote (or the stub); run_here.py runs what the answer needs, the
 * answer, then the check cell, and the check's result is shown as the notebook shows it.
 * The reader's code is kept in localStorage, per page and exercise.
 */
(function () {
  "use strict";

  const RUN_TIME_LIMIT_S = 30;  // a check slower than this is stopped (Python restarts)
  const base = new URL(".", document.currentScript.src);
  const storageKey = (page, label) => `mha-book/run-here/v1/${page}/${label}`;

  function readStored(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (error) {
      return null;  // storage is off in this browser: the code lives as long as the page
    }
  }

  function writeStored(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
      return true;
    } catch (error) {
      return false;
    }
  }

  /* One Python per page, started by the first run, restarted after a stopped run. */
  class PagePython {
    constructor(onProgress) {
      this.onProgress = onProgress;
      this.worker = null;
      this.loaded = null;
      this.startup = [];
      this.pending = new Map();
      this.nextId = 0;
      this.queue = Promise.resolve();
    }

    start() {
      if (this.loaded) return this.loaded;
      this.worker = new Worker(new URL("run-here-worker.js", base));
      this.startup = [];  // [stage, seconds since the worker started]: data-startup (the benchmark)
      this.loaded = new Promise((resolve, reject) => {
        this.worker.onmessage = ({ data }) => {
          if (data.type === "progress") {
            this.startup.push([data.text, data.seconds]);
            this.onProgress(data.text);
          } else if (data.type === "loaded") {
            this.startup.push(["ready", data.seconds]);
            resolve();
          } else if (data.type === "failed") {
            reject(new Error(data.error));
          } else if (data.type === "result") {
            const settle = this.pending.get(data.id);
            this.pending.delete(data.id);
            if (settle) settle.resolve(data.reply);
          }
        };
        this.worker.onerror = (event) => reject(new Error(event.message || "the worker failed"));
      });
      this.worker.postMessage({
        type: "load",
        runtime: new URL("pyodide/", base).href,
        manifest: new URL("manifest.json", base).href,
        runner: new URL("run_here.py", base).href,
      });
      this.loaded.catch(() => this.stop());
      return this.loaded;
    }

    stop() {
      if (this.worker) this.worker.terminate();
      for (const settle of this.pending.values()) settle.reject(new Error("stopped"));
      this.pending.clear();
      this.worker = null;
      this.loaded = null;
    }

    /* Runs one check; one at a time (the next waits for this one). */
    run(cells, answer, check) {
      const job = this.queue.then(async () => {
        await this.start();
        const id = this.nextId++;
        const reply = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
        this.worker.postMessage({ type: "run", id, cells, answer, check });
        let timer;
        const timeout = new Promise((_, reject) => {
          timer = setTimeout(() => {
            reject(new Error(`did not finish within ${RUN_TIME_LIMIT_S} s: the page stopped ` +
              "Python (it starts again on the next run)"));
            this.stop();  // after the reject above, so that the race ends with its message
          }, RUN_TIME_LIMIT_S * 1000);
        });
        try {
          return await Promise.race([reply, timeout]);
        } finally {
          clearTimeout(timer);
        }
      });
      this.queue = job.catch(() => {});
      return job;
    }
  }

  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  }

  /* Tab indents, Shift+Tab dedents; Escape then Tab leaves the editor; Ctrl/Cmd+Enter runs. */
  function editorKeys(editor, run) {
    let leaving = false;
    editor.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        leaving = true;
        return;
      }
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      } else if (event.key === "Tab" && !leaving && !event.altKey && !event.ctrlKey) {
        event.preventDefault();
        const { selectionStart: start, value } = editor;
        const lineStart = value.lastIndexOf("\n", start - 1) + 1;
        if (event.shiftKey) {
          const spaces = value.slice(lineStart, lineStart + 4).match(/^ */)[0].length;
          editor.setRangeText("", lineStart, lineStart + spaces, "preserve");
        } else {
          editor.setRangeText("    ", start, editor.selectionEnd, "end");
        }
        editor.dispatchEvent(new Event("input"));
      }
      if (event.key !== "Escape") leaving = false;
    });
  }

  function answerOf(page, exercise) {
    return readStored(storageKey(page.page, exercise.label)) ?? exercise.stub;
  }

  function mount(placeholder, page, python) {
    const exercise = page.exercises.find((e) => e.label === placeholder.dataset.label);
    if (!exercise) return;
    const key = storageKey(page.page, exercise.label);
    const open = element("button", { type: "button", class: "mha-run-here-open" });
    open.append(element("span", { "aria-hidden": "true" }, "▶ "), "Run here");
    const saved = element("span", { class: "mha-run-here-saved" });
    const panel = element("div", { class: "mha-run-here-panel", hidden: "" });
    const editorId = `mha-run-here-${exercise.label}`;
    const label = element("label", { for: editorId },
      `Your code for “${exercise.title}” (kept in this browser)`);
    const editor = element("textarea", {
      id: editorId, class: "mha-run-here-editor", spellcheck: "false", autocapitalize: "off",
      autocomplete: "off", autocorrect: "off", wrap: "off",
    });
    const actions = element("div", { class: "mha-run-here-actions" });
    const run = element("button", { type: "button", class: "mha-run-here-run" }, "Run the check");
    const reset = element("button", { type: "button", class: "mha-run-here-reset" },
      "Back to the stub");
    const status = element("span", { class: "mha-run-here-status", role: "status" });
    const keys = element("p", { class: "mha-run-here-keys" },
      "Ctrl+Enter runs. Tab indents; Esc, then Tab, leaves the editor.");
    const result = element("div", { class: "mha-run-here-result", "aria-live": "polite" });
    actions.append(run, reset, status);
    panel.append(label, editor, actions, keys, result);
    placeholder.append(open, saved, panel);

    const showSaved = () => {
      saved.textContent = readStored(key) !== null ? " your code is saved in this browser" : "";
    };
    const fit = () => {
      editor.rows = Math.min(Math.max(editor.value.split("\n").length + 1, 4), 30);
    };
    editor.value = answerOf(page, exercise);
    fit();
    showSaved();
    editor.addEventListener("input", () => {
      const kept = writeStored(key, editor.value === exercise.stub ? null : editor.value);
      fit();
      if (!kept) status.textContent = "This browser does not keep code: copy it before leaving.";
    });

    async function check() {
      if (window.location.protocol === "file:") {
        result.replaceChildren(element("p", { class: "mha-run-here-error" },
          "Python runs in the page only when the site is served over HTTP, not opened as a " +
          "file: serve it with  python3 -m http.server -d _build/html  and open " +
          "http://localhost:8000/"));
        return;
      }
      const cells = page.cells.map((cell) => (cell.kind === "answer"
        ? { kind: "answer", source: cell.exercise === exercise.label ? editor.value
          : answerOf(page, page.exercises.find((e) => e.label === cell.exercise)) }
        : { kind: cell.kind, source: cell.source }));
      const answer = page.cells.findIndex((c) => c.kind === "answer" && c.exercise === exercise.label);
      const checkCell = page.cells.findIndex((c) => c.kind === "check" && c.exercise === exercise.label);
      run.disabled = true;
      placeholder.dataset.state = "running";
      const started = performance.now();
      status.textContent = python.loaded ? "Running…" : "Starting Python (the first time, a few seconds)…";
      try {
        const reply = await python.run(cells, answer, checkCell);
        const parts = [];
        if (reply.output) parts.push(element("pre", { class: "mha-run-here-output" }, reply.output));
        if (reply.error) parts.push(element("pre", { class: "mha-run-here-error" }, reply.error));
        if (reply.html) {
          const shown = element("div", { class: "mha-run-here-check" });
          shown.innerHTML = reply.html;  // the check's own HTML, as the notebook shows it
          parts.push(shown);
        }
        result.replaceChildren(...parts);
        placeholder.dataset.status = reply.status ?? "error";
        placeholder.dataset.diagnosis = reply.diagnosis ?? "";
        status.textContent = `Ran in ${((performance.now() - started) / 1000).toFixed(1)} s.`;
      } catch (error) {
        result.replaceChildren(element("pre", { class: "mha-run-here-error" }, error.message));
        placeholder.dataset.status = "error";
        placeholder.dataset.diagnosis = "";
        status.textContent = "";
      } finally {
        placeholder.dataset.seconds = ((performance.now() - started) / 1000).toFixed(3);
        placeholder.dataset.startup = JSON.stringify(python.startup);
        placeholder.dataset.runs = String(Number(placeholder.dataset.runs ?? 0) + 1);
        placeholder.dataset.state = "done";
        run.disabled = false;
      }
    }

    editorKeys(editor, check);
    const warmUp = () => {
      if (window.location.protocol !== "file:") python.start().catch(() => {});
    };
    open.addEventListener("pointerenter", warmUp, { once: true });  // a head start on the click
    open.addEventListener("focus", warmUp, { once: true });
    open.addEventListener("click", () => {
      open.hidden = true;
      saved.hidden = true;
      panel.hidden = false;
      check();
    });
    run.addEventListener("click", check);
    reset.addEventListener("click", () => {
      if (editor.value !== exercise.stub && !window.confirm("Replace your code with the stub?")) return;
      editor.value = exercise.stub;
      writeStored(key, null);
      fit();
      editor.focus();
    });
  }

  function main() {
    const data = document.getElementById("mha-run-here-data");
    if (!data) return;
    const page = JSON.parse(data.textContent);
    const python = new PagePython((text) => {
      for (const status of document.querySelectorAll(".mha-run-here[data-state=running] .mha-run-here-status")) {
        status.textContent = text;
      }
    });
    for (const placeholder of document.querySelectorAll(".mha-run-here[data-label]")) {
      mount(placeholder, page, python);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
  else main();
})();
