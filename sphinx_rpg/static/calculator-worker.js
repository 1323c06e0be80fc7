/* sphinx-rpg dice calculator: the Web Worker that runs the book's own rules engine in Pyodide.
 *
 * A module worker, so the page never freezes: the page terminates it to cancel a question or when
 * an answer takes too long.  Messages in: {type: "start", pyodide, wheel, systems} once, then
 * {type: "ask", id, kind ("odds" or "roll"), notation, system, dc, under, seed, systems}.  Out: {type: "ready", ms},
 * {type: "answer", id, json, ms} and {type: "failed", message}.  The reader's text reaches Python
 * only as string arguments of rules.calculator.answer_json / roll_json: nothing is evaluated.
 */
let answerJson = null;
let rollJson = null;
let toPy = null;
let pending = [];

function oneLine(error) {
  const text = String((error && error.message) || error).split("\n").map((s) => s.trim()).filter(Boolean);
  return text.length ? text[text.length - 1] : "unknown error";
}

/* The page's game systems, imported while the reader is not waiting: the first is imported before
 * "ready" (the page's own system: its first question needs it), the others one by one afterwards,
 * each after any question already waiting. */
function preload(loadRegistry, systems) {
  if (!systems.length) return;
  setTimeout(() => {
    try { loadRegistry(systems[0]); } catch (error) { /* the question that needs it reports it */ }
    preload(loadRegistry, systems.slice(1));
  }, 0);
}

async function start(pyodideUrl, wheelUrl, systems) {
  const t0 = performance.now();
  const module = await import(pyodideUrl + "pyodide.mjs");
  const pyodide = await module.loadPyodide({ indexURL: pyodideUrl });
  const response = await fetch(wheelUrl);
  if (!response.ok) throw new Error("the engine wheel " + wheelUrl + " answered HTTP " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "wheel");
  const calculator = pyodide.pyimport("rules.calculator");
  answerJson = calculator.answer_json;
  rollJson = calculator.roll_json;
  toPy = (value) => pyodide.toPy(value);
  const loadRegistry = pyodide.pyimport("rules.systems").load_registry;
  if (systems.length) {
    try { loadRegistry(systems[0]); } catch (error) { /* reported by the question that needs it */ }
  }
  preload(loadRegistry, systems.slice(1));
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
      : answerJson(message.notation, system, dc, under, systems);
    self.postMessage({ type: "answer", id: message.id, json: json, ms: performance.now() - t0 });
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
    start(message.pyodide, message.wheel, message.systems || []).then((ms) => {
      self.postMessage({ type: "ready", ms: ms });
      const queued = pending;
      pending = [];
      queued.forEach(answer);
    }, (error) => self.postMessage({ type: "failed", message: oneLine(error) }));
  } else if (message.type === "ask") {
    if (answerJson) answer(message); else pending.push(message);
  }
};
