// The plan view: a planning problem (shipped, from the folder, pasted PDDL or the editor's
// text) planned by `plyspec plan` under a time budget with its progress shown, then the plan
// stepped through: each action, the facts it adds and deletes, the state after it and the
// goal facts met so far.
import { api, runJob, cancelJob, el, clear, fail } from "./util.js";

const CONFIGS = [["optimal", "optimal: A* with LM-cut (cheapest plan)"], ["lama-first", "lama-first: LAMA's first search (fast)"],
                 ["algo:bfs", "bfs (fewest steps)"], ["algo:gbfs", "gbfs with h_FF"], ["algo:ucs", "ucs (cheapest, blind)"]];
const L = { section: null, mode: "problem", problem: "monkey_bananas", domain: "", task: "", domainText: "", taskText: "",
            text: null, format: "yaml", specs: null, config: "optimal", time: 10, result: null, step: 0, holder: {}, running: null, timer: null };

export async function show(section, name) {
  L.section = section;
  if (name && name !== L.problem) {
    L.problem = name; L.mode = "problem"; L.result = null;
  }
  L.specs = (await api("/api/specs")).specs;
  render();
}

export function planText(text, format) {
  L.mode = "text"; L.text = text; L.format = format; L.result = null;
  location.hash = "#plan";
}

function render() {
  const specs = L.specs || [];
  const problems = specs.filter(s => s.kind === "planning" || (s.players && s.players.length === 1));   // puzzles too
  const pddl = specs.filter(s => s.kind === "pddl");
  const pick = (id, value, rows, on) => el("select", { id, onchange: e => on(e.target.value) },
    rows.map(r => el("option", { value: r.name, selected: r.name === value }, r.name)));
  const source = L.mode === "problem" ? pick("problem", L.problem, problems, v => { L.problem = v; })
    : L.mode === "files" ? [pick("domain", L.domain, pddl, v => { L.domain = v; }), " ", pick("task", L.task, pddl, v => { L.task = v; })]
    : L.mode === "paste" ? el("div", { class: "paste" },
        el("textarea", { id: "domain-text", placeholder: "(define (domain ...", spellcheck: "false", oninput: e => { L.domainText = e.target.value; } }, L.domainText),
        el("textarea", { id: "task-text", placeholder: "(define (problem ...", spellcheck: "false", oninput: e => { L.taskText = e.target.value; } }, L.taskText))
    : el("span", { class: "sub" }, `the editor's text (${L.format})`);
  const modes = [["problem", "a problem"], ["paste", "paste PDDL"], ...(pddl.length ? [["files", "PDDL files of the folder"]] : []),
                 ...(L.text !== null ? [["text", "the editor's text"]] : [])];
  clear(L.section,
    el("div", { class: "card" },
      el("div", { class: "toolbar" },
        modes.map(([m, label]) => el("label", { class: "inline" }, el("input", { type: "radio", name: "mode", value: m, checked: L.mode === m,
          onchange: () => { L.mode = m; if (m === "files" && !L.domain && pddl.length) { L.domain = pddl[0].name; L.task = (pddl[1] || pddl[0]).name; } render(); } }), ` ${label}`))),
      el("div", { class: "toolbar" }, source),
      el("div", { class: "toolbar" },
        el("select", { id: "config", onchange: e => { L.config = e.target.value; } },
          CONFIGS.map(([v, label]) => el("option", { value: v, selected: v === L.config }, label))),
        el("label", {}, "time limit (s) ", el("input", { id: "plan-time", type: "number", min: 1, max: 120, value: L.time, style: "width:70px",
          onchange: e => { L.time = Number(e.target.value); } })),
        el("button", { id: "plan-button", class: "primary", disabled: !!L.running, onclick: plan }, "Plan"),
        el("button", { id: "plan-stop", disabled: !L.running, onclick: () => cancelJob(L.holder) }, "Stop"),
        el("span", { id: "plan-progress", class: "sub" }, L.running || ""))),
    L.result ? resultView() : null);
}

async function plan() {
  const body = { time: L.time };
  const row = (L.specs || []).find(r => r.name === L.problem);
  const puzzle = L.mode === "problem" && row && row.kind === "game";      // searched blind: no configurations
  if (L.config.startsWith("algo:")) body.algo = L.config.slice(5); else if (!puzzle) body.config = L.config;
  if (L.mode === "problem") body.problem = L.problem;
  else if (L.mode === "files") { body.domain = L.domain; body.task = L.task; }
  else if (L.mode === "paste") { body.domain_text = L.domainText; body.task_text = L.taskText; }
  else { body.text = L.text; body.format = L.format; }
  L.running = "planning…"; L.result = null;
  render();
  try {
    L.result = await runJob("/api/plan", body, job => {
      L.running = job.progress || `planning… ${job.seconds.toFixed(1)} s`;
      const box = L.section.querySelector("#plan-progress");
      if (box) box.textContent = L.running;
    }, L.holder);
    L.step = 0;
  } catch (error) { fail(error); }
  L.running = null;
  render();
}

function resultView() {
  const r = L.result;
  if (!r.solved) return el("div", { class: "card" }, el("h3", {}, "No plan"), el("p", {}, r.reason || "the search ended without a plan"));
  const replay = r.replay;
  const steps = replay.steps;
  const s = steps[L.step];
  const goal = new Set(replay.goal || []);
  const summary = el("div", { class: "summary", id: "plan-summary" },
    `${r.problem}: plan of length ${r.length}, cost ${r.cost}, ${r.expanded.toLocaleString()} states expanded, `,
    `${r.time_s.toFixed(3)} s (${r.algorithm}${r.heuristic ? " with " + r.heuristic : ""}); `,
    el("b", { class: r.valid ? "good" : "bad" }, r.valid ? "validated ✓" : "NOT valid"));
  const list = el("ol", { class: "plan-steps", id: "plan-steps", start: 0 },
    steps.map((step, i) => el("li", { class: i === L.step ? "current" : "", onclick: () => go(i) }, step.action || "(initial state)")));
  const go = i => { L.step = Math.max(0, Math.min(steps.length - 1, i)); if (L.step === steps.length - 1) stopPlay(); render(); };
  const stepper = el("div", { class: "stepper" },
    el("button", { id: "plan-first", onclick: () => go(0) }, "|◀ start"),
    el("button", { id: "plan-back", onclick: () => go(L.step - 1) }, "◀ back"),
    el("button", { id: "plan-next", onclick: () => go(L.step + 1) }, "next ▶"),
    el("button", { id: "plan-play", onclick: () => { if (L.timer) { stopPlay(); render(); } else L.timer = setInterval(() => go(L.step + 1), 700); } },
       L.timer ? "pause" : "play"),
    el("span", { class: "sub", id: "plan-step" }, ` step ${L.step} of ${steps.length - 1}`));
  let detail;
  if (replay.facts) {
    const met = s.goal_met.length, total = goal.size;
    detail = el("div", { class: "step-detail" },
      el("h3", {}, L.step === 0 ? "The initial state" : `Step ${L.step}: ${s.action}`),
      L.step ? el("div", { class: "facts" }, el("span", { class: "label" }, "adds "), s.add.map(f => el("span", { class: "fact add" }, f)), s.add.length ? null : "–") : null,
      L.step ? el("div", { class: "facts" }, el("span", { class: "label" }, "deletes "), s.delete.map(f => el("span", { class: "fact del" }, f)), s.delete.length ? null : "–") : null,
      el("div", { class: "facts", id: "goal-met" }, el("span", { class: "label" }, `goal facts met: ${met} of ${total} `),
        [...goal].map(f => el("span", { class: `fact ${s.goal_met.includes(f) ? "met" : "unmet"}` }, (s.goal_met.includes(f) ? "✓ " : "✗ ") + f))),
      el("div", { class: "facts state" }, el("span", { class: "label" }, `state (${s.state.length} facts) `),
        s.state.map(f => el("span", { class: `fact${goal.has(f) ? " goal" : ""}${s.add.includes(f) ? " new" : ""}` }, f))));
  } else {
    detail = el("div", { class: "step-detail" }, el("h3", {}, L.step === 0 ? "The initial state" : `Step ${L.step}: ${s.action}`),
      el("pre", {}, s.text || ""));
  }
  return el("div", {}, el("div", { class: "card" }, summary),
    el("div", { class: "plan-grid" }, el("div", { class: "card" }, el("h3", {}, "Plan"), list),
      el("div", { class: "card" }, stepper, detail)));
}

function stopPlay() { clearInterval(L.timer); L.timer = null; }
