/* sphinx-rpg dice calculator: the Web Worker that runs the book's own rules engine in Pyodide.
 *
 * A module worker, so the page never freezes: the page terminates it to cancel a question or when
 * an answer takes too long.  Messages in: {type: "start", pyodide, wheel, systems, first, stdlib, bytecode}
 * once (``first``: how many of ``systems`` to import before "ready", the rest after the first answers), then
 * {type: "ask", id, kind ("odds" or "roll"), notation, system, dc, under, seed, systems, every, asked}.
 * Out: {type: "progress", stage, loaded} while starting (stage: "python", "engine" or "systems"; loaded:
 * bytes of that stage's files arrived), {type: "ready", ms, marks}, {type: "answer", id, json, ms, sent}
 * and {type: "failed", message}
 * (``ms``: the answer's time in Python; ``sent``: when it was posted, on the page's clock too; ``queued``:
 * how long the question took to reach Python since the page ``asked``).
 * The reader's text reaches Python only as string arguments of rules.calculator.answer_json /
 * roll_json: nothing is evaluated.
 */
let answerJson = null;
let rollJson = null;
let toPy = null;
let pending = [];
let marks = {}; // where the start's time went (ms), for bench/calculator.py

function oneLine(error) {
  const text = String((error && error.message) || error).split("\n").map((s) => s.trim()).filter(Boolean);
  return text.length ? text[text.length - 1] : "unknown error";
}

/* Everything the first question needs, done while the reader already waits for the start: the game
 * system the page's first calculator starts with imported (importing one takes 0.1 to 0.3 s in Pyodide:
 * done after "ready" it held up the first question) and one question answered, so that its code paths
 * are warm too.  The page's other systems follow once that question is answered (see later). */
function warmUp(pyodide, systems) {
  const t0 = performance.now();
  loadRegistry = pyodide.pyimport("rules.systems").load_registry;
  systems.forEach(load);
  const t1 = performance.now();
  const offered = toPy([]);
  try { answerJson("3d6", undefined, "10", undefined, offered); } finally { offered.destroy(); }
  marks.systems = t1 - t0;
  marks.firstAnswer = performance.now() - t1;
}

let loadRegistry = null;
function load(system) {
  try { loadRegistry(system); } catch (error) { /* the question that needs it reports it */ }
}

/* The page's other game systems, imported after the first answers: one per task, so a question asked
 * meanwhile waits for one import at most, never for all of them. */
function later(systems) {
  const rest = systems.slice();
  const next = () => {
    if (!rest.length) return;
    load(rest.shift());
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/* How much has arrived, summed per stage ("python": Pyodide's files, "engine": the wheel and its
 * bytecode) and posted to the page.  The two large files (the interpreter's wasm, the standard library)
 * are counted as their bytes stream in: a request of our own for each, beside Pyodide's, read chunk
 * by chunk (the browser's HTTP cache lets both share one download of a cacheable file, and Pyodide's
 * own request keeps its streaming compile and the compiled-code cache of a later visit; a file served
 * with "no-store" would come twice).  Every other file counts once it has arrived (resource timing). */
let stage = "python";
const arrived = { python: 0, engine: 0 };
let posted = 0;
function progress(name) {
  if (name) stage = name;
  posted = performance.now();
  self.postMessage({ type: "progress", stage: stage, loaded: arrived[stage] || 0 });
}
function progressSoon() { // at most one message a tenth of a second while bytes stream in
  if (performance.now() - posted > 100) progress();
}
function streamed(url, into) {
  return fetch(url).then(async (response) => {
    if (!response.ok || !response.body) return;
    const reader = response.body.getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      arrived[into] += chunk.value.byteLength;
      progressSoon();
    }
    progress();
  }).catch(() => { /* the start reports its own failure: this is only the count */ });
}
function watchArrivals(engineUrls, counted) {
  if (typeof PerformanceObserver === "undefined") return;
  try {
    new PerformanceObserver((list) => {
      list.getEntries().forEach((entry) => {
        if (counted.has(entry.name)) return; // counted as it streamed
        const bytes = entry.decodedBodySize || entry.encodedBodySize || entry.transferSize || 0;
        arrived[engineUrls.includes(entry.name) ? "engine" : "python"] += bytes;
      });
      progress();
    }).observe({ type: "resource", buffered: true });
  } catch (error) { /* no resource timing here: the stages alone are shown */ }
}

async function start(pyodideUrl, wheelUrl, first, stdlibUrl, bytecodeUrl) {
  const t0 = performance.now();
  const large = [pyodideUrl + "pyodide.asm.wasm", stdlibUrl || pyodideUrl + "python_stdlib.zip"];
  watchArrivals([wheelUrl, bytecodeUrl], new Set(large));
  progress("python");
  large.forEach((url) => streamed(url, "python"));
  marks.workerAt = performance.timeOrigin + t0; // on the wall clock: the page subtracts its own origin
  // the engine wheel comes over the network while Pyodide boots (a failed fetch is reported below)
  const wheel = fetch(wheelUrl).then((response) => {
    if (!response.ok) throw new Error("the engine wheel " + wheelUrl + " answered HTTP " + response.status);
    return response.arrayBuffer();
  });
  wheel.catch(() => {}); // not unhandled while Pyodide boots: awaited below
  // the engine's bytecode (checked against each module's source at import), when the site has it
  const bytecode = bytecodeUrl ? fetch(bytecodeUrl).then((response) => response.ok ? response.arrayBuffer() : null)
    .catch(() => null) : Promise.resolve(null);
  const module = await import(pyodideUrl + "pyodide.mjs");
  marks.loader = performance.now() - t0;
  // stdLibURL: the standard library with its bytecode, when the site has it (nothing compiled at start)
  const pyodide = await module.loadPyodide(stdlibUrl ? { indexURL: pyodideUrl, stdLibURL: stdlibUrl }
                                                     : { indexURL: pyodideUrl });
  marks.pyodide = performance.now() - t0 - marks.loader;
  progress("engine");
  const t1 = performance.now();
  pyodide.unpackArchive(await wheel, "wheel");
  const compiled = await bytecode;
  if (compiled) {
    pyodide.unpackArchive(compiled, "zip"); // beside the wheel's modules (both into the working directory)
  }
  marks.wheel = performance.now() - t1;
  // The browser's own, lower work budget (Pyodide runs the engine about 3x slower than CPython).
  pyodide.pyimport("rules.dice.errors").use_browser_budget();
  const calculator = pyodide.pyimport("rules.calculator");
  answerJson = calculator.answer_json;
  rollJson = calculator.roll_json;
  toPy = (value) => pyodide.toPy(value);
  marks.engine = performance.now() - t1 - marks.wheel;
  progress("systems");
  await new Promise((resolve) => setTimeout(resolve, 0)); // the page gets the message before the work
  warmUp(pyodide, first);
  return performance.now() - t0;
}

function answer(message) {
  const t0 = performance.now();
  const systems = toPy(message.systems || []);
  try {
    // undefined, not null, reaches Python as None
    const system = message.system || undefined, dc = message.dc ?? undefined, under = message.under ?? undefined;
    const json = message.kind === "roll"
      ? rollJson(message.notation, system, String(message.seed), dc, under, systems)
      : answerJson(message.notation, system, dc, under, systems, message.every === true, message.atMost === true);
    const t1 = performance.now();
    self.postMessage({ type: "answer", id: message.id, json: json, ms: t1 - t0, sent: performance.timeOrigin + t1,
                       queued: performance.timeOrigin + t0 - message.asked });
  } catch (error) { // a bug in the engine: its last line, never a stack trace
    self.postMessage({ type: "answer", id: message.id, json: JSON.stringify({ error: "internal error: " + oneLine(error) }),
                       ms: performance.now() - t0 });
  } finally {
    systems.destroy();
  }
}

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    const systems = message.systems || [], first = systems.slice(0, message.first || 0);
    start(message.pyodide, message.wheel, first, message.stdlib, message.bytecode).then((ms) => {
      self.postMessage({ type: "ready", ms: ms, marks: marks });
      const queued = pending;
      pending = [];
      queued.forEach(answer);
      later(systems.slice(first.length));
    }, (error) => self.postMessage({ type: "failed", message: oneLine(error) }));
  } else if (message.type === "ask") {
    if (answerJson) answer(message); else pending.push(message);
  }
};
