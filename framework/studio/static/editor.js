// The editor view: a spec's text (YAML or .game) with syntax colouring and the diagnostics
// of `plyspec lsp` / `plyspec check` underlined as you type, a Play button that plays the
// text at once, and `plyspec test` on it with its property table.  The colouring is a
// <pre> under a transparent <textarea>: the textarea does the editing.
import { api, runJob, cancelJob, el, clear, fail, say } from "./util.js";
import { openText } from "./play.js";
import { planText } from "./plan.js";

const STARTER = `# A new game: change it and watch the diagnostics; Play tries it.
game: Three in a row on 4x4
players: [X, O]
options: {size: 4, k: 3}
board: {width: size, height: size, cells: [empty, X, O]}
actions:
  place(c in cell):
    if: board[c] == empty
    then: board[c] = mover
terminal: line(board, k, X) or line(board, k, O) or full(board)
winner: X if line(board, k, X) else O if line(board, k, O) else none
display: {empty: ".", X: X, O: O}
`;

const E = { text: null, format: "yaml", name: null, kind: "game", diagnostics: [], timer: null, asked: 0,
            section: null, tests: null, holder: {} };
const KEYWORDS = /^(if|then|else|and|or|not|in|for|let|do|forall|exists|true|false|none|mover|next|game|players|options|board|state|actions|terminal|winner|display|define|init|evaluation|chance|goal|max_length|repetition|noisy|problem|domain|objects|predicates|types|action|option|pre|add|del|effect|cost|weight|count|symmetries|of)$/;

export async function show(section, name) {
  E.section = section;
  if (name && name !== E.name) {
    const spec = await api(`/api/spec?name=${encodeURIComponent(name)}`);
    E.name = name;
    E.text = spec.text;
    E.format = ["game", "plan", "pddl"].includes(spec.format) ? spec.format : "yaml";
    E.tests = null;
  }
  if (E.text === null) E.text = STARTER;
  render();
  check();
}

function render() {
  const options = el("select", { id: "open-spec", onchange: e => { if (e.target.value) location.hash = `#editor/${e.target.value}`; } },
    el("option", { value: "" }, "open a spec…"));
  api("/api/specs").then(d => d.specs.filter(s => s.kind !== "pddl").forEach(s =>
    options.append(el("option", { value: s.name, selected: s.name === E.name }, s.name)))).catch(() => {});
  const area = el("textarea", { id: "source", spellcheck: "false", wrap: "off", autocomplete: "off",
    oninput: e => { E.text = e.target.value; paint(); clearTimeout(E.timer); E.timer = setTimeout(check, 250); },
    onscroll: e => { const hl = E.section.querySelector(".hl"); hl.scrollTop = e.target.scrollTop; hl.scrollLeft = e.target.scrollLeft;
                     E.section.querySelector(".gutter").scrollTop = e.target.scrollTop; },
    onkeydown: keys });
  area.value = E.text;
  clear(E.section,
    el("div", { class: "toolbar" }, options,
      el("select", { id: "format", onchange: e => { E.format = e.target.value; check(); } },
        ["yaml", "game", "plan", "pddl"].map(f => el("option", { value: f, selected: f === E.format }, f === "game" ? ".game" : f === "plan" ? ".plan" : f.toUpperCase()))),
      el("button", { id: "play-text", class: "primary", onclick: play }, "Play ▶"),
      el("button", { id: "test-text", onclick: test }, "Run plyspec test"),
      el("button", { id: "download", onclick: download, title: "save the text as a file (the studio keeps nothing)" }, "Download"),
      el("button", { id: "new-text", onclick: () => { E.text = STARTER; E.name = null; E.format = "yaml"; location.hash = "#editor"; render(); check(); } }, "New game"),
      el("span", { id: "check-status", class: "sub" })),
    el("div", { class: "editor" }, el("pre", { class: "gutter", "aria-hidden": "true" }), el("pre", { class: "hl", "aria-hidden": "true" }), area),
    el("div", { id: "diagnostics" }),
    el("div", { id: "tests" }));
  paint();
  showDiagnostics();
  showTests();
}

// Tab indents by two spaces; Enter keeps the line's indentation (one level more after a `:`).
function keys(e) {
  if (e.key === "Tab") {
    e.preventDefault();
    document.execCommand("insertText", false, "  ");
  } else if (e.key === "Enter" && !e.shiftKey) {
    const area = e.target, before = area.value.slice(0, area.selectionStart);
    const line = before.slice(before.lastIndexOf("\n") + 1);
    const indent = line.match(/^\s*/)[0] + (/:\s*(#.*)?$/.test(line) && E.format === "yaml" ? "  " : "");
    e.preventDefault();
    document.execCommand("insertText", false, "\n" + indent);
  }
}

function download() {
  const suffix = { yaml: ".yaml", game: ".game", plan: ".plan", pddl: ".pddl" }[E.format];
  const name = (E.name ? E.name.replace(/^folder:/, "").split("/").pop().replace(/\.[a-z]+$/, "") : "my_game") + suffix;
  const link = el("a", { href: URL.createObjectURL(new Blob([E.text], { type: "text/plain" })), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function check() {
  const asked = ++E.asked;
  try {
    const result = await api("/api/check", { text: E.text, format: E.format });
    if (asked !== E.asked) return;
    E.diagnostics = result.diagnostics;
    E.kind = result.kind;
    paint();
    showDiagnostics();
  } catch (error) { fail(error); }
}

function escape(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

// Classes per character of a line: comment, key, string, number, keyword.
function colours(line) {
  const cls = new Array(line.length).fill("");
  const paintRange = (from, to, c) => { for (let i = from; i < to; i++) cls[i] = c; };
  const key = line.match(/^(\s*-?\s*)([A-Za-z_][\w]*(\([^)]*\))?)\s*:(?=\s|$)/);
  if (key) paintRange(key[1].length, key[1].length + key[2].length, "k");
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"?|'[^']*'?|\b\d+(\.\d+)?\b|\b[A-Za-z_]\w*\b|;.*$|#.*$/g)) {
    const t = m[0], at = m.index;
    if (cls[at] === "c" || cls[at] === "s") continue;
    if (t[0] === "#" || (t[0] === ";" && E.format === "pddl")) { paintRange(at, line.length, "c"); break; }
    if (t[0] === '"' || t[0] === "'") paintRange(at, at + t.length, "s");
    else if (/^\d/.test(t)) paintRange(at, at + t.length, "n");
    else if (KEYWORDS.test(t) && cls[at] !== "k") paintRange(at, at + t.length, "w");
  }
  return cls;
}

function paint() {
  const lines = E.text.split("\n");
  const marks = lines.map(() => []);
  for (const d of E.diagnostics) if (marks[d.line - 1]) marks[d.line - 1].push(d);
  const out = lines.map((line, i) => {
    const cls = colours(line);
    const bad = new Array(line.length + 1).fill("");
    for (const d of marks[i]) for (let c = d.col - 1; c < Math.max(d.end_col - 1, d.col); c++) bad[c] = d.severity === "warning" ? "warn" : "err";
    let html = "", run = "", current = null;
    const flush = () => { if (run) html += current ? `<span class="${current}">${escape(run)}</span>` : escape(run); run = ""; };
    for (let c = 0; c <= line.length; c++) {
      const ch = c < line.length ? line[c] : (bad[c] ? " " : "");
      const k = [cls[c], bad[c]].filter(Boolean).join(" ") || null;
      if (k !== current) { flush(); current = k; }
      run += ch;
    }
    flush();
    return html;
  });
  E.section.querySelector(".hl").innerHTML = out.join("\n") + "\n";
  E.section.querySelector(".gutter").textContent = lines.map((_, i) => i + 1).join("\n") + "\n";
}

function showDiagnostics() {
  const box = E.section.querySelector("#diagnostics");
  const status = E.section.querySelector("#check-status");
  const errors = E.diagnostics.filter(d => d.severity === "error");
  status.textContent = errors.length ? `${errors.length} error${errors.length > 1 ? "s" : ""}` : `✓ no errors (${E.kind})`;
  status.className = errors.length ? "bad" : "good";
  const lines = E.text.split("\n");
  clear(box, E.diagnostics.map(d => el("div", { class: `diagnostic ${d.severity}`, onclick: () => goTo(d) },
    el("div", {}, el("b", {}, `${d.line}:${d.col}: ${d.severity}: `), d.message),
    el("pre", {}, (lines[d.line - 1] || "") + "\n" + " ".repeat(Math.max(0, d.col - 1)) + "^".repeat(Math.max(1, d.end_col - d.col))),
    d.hint ? el("div", { class: "hint" }, `hint: ${d.hint}`) : null)));
}

function goTo(d) {
  const area = E.section.querySelector("#source");
  const lines = E.text.split("\n");
  let at = 0;
  for (let i = 0; i < d.line - 1; i++) at += lines[i].length + 1;
  area.focus();
  area.setSelectionRange(at + d.col - 1, at + Math.max(d.end_col, d.col + 1) - 1);
}

async function play() {
  try {
    if (E.kind !== "game") return planText(E.text, E.format);
    await openText(E.text, E.format);
  } catch (error) { fail(error); }
}

async function test() {
  const button = E.section.querySelector("#test-text");
  button.disabled = true;
  E.tests = { running: true };
  showTests();
  try {
    const result = await runJob("/api/test", { text: E.text, format: E.format, examples: 30 }, job => {
      const box = E.section.querySelector("#tests .sub");
      if (box) box.textContent = `plyspec test running… ${job.seconds.toFixed(1)} s`;
    }, E.holder);
    E.tests = result;
  } catch (error) { E.tests = null; fail(error); }
  button.disabled = false;
  showTests();
}

function showTests() {
  const box = E.section.querySelector("#tests");
  if (!E.tests) return clear(box);
  if (E.tests.running) return clear(box, el("div", { class: "card" }, el("span", { class: "sub" }, "plyspec test running…"),
    " ", el("button", { onclick: () => cancelJob(E.holder) }, "Stop")));
  const spec = E.tests.specs[0];
  clear(box, el("div", { class: "card" }, el("h3", {}, `plyspec test: ${spec.ok ? "every property holds" : "a property fails"}`),
    el("table", { class: "properties", id: "properties" }, el("tr", {}, el("th", {}, "property"), el("th", {}, "status"), el("th", {}, "detail")),
      spec.properties.map(p => el("tr", { class: p.status }, el("td", {}, p.property), el("td", {}, p.status),
        el("td", {}, p.detail || "", p.counterexample ? el("div", { class: "sub" }, `counterexample: ${p.counterexample.join(" ")}`) : null))))));
}
