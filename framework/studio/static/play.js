// The play view: the board (or a generic view of the variables), legal moves highlighted
// and made by clicks (a cell, then the next cell of a move that names several), the move
// list with each computer move's value, depth, nodes and principal variation, chance
// outcomes with their probabilities, seats (human, random or any searcher) and undo.
import { api, runJob, cancelJob, el, clear, fail, say, num } from "./util.js";
import { drawBoard } from "./board.js";

export const P = { view: null, spec: null, seats: [], prefix: [], holder: {}, busy: false,
                   autoChance: true, filter: "", section: null };

const PRESETS = ["human", "random", "alphabeta:depth=4", "alphabeta:depth=6", "alphabeta:time=1",
                 "minimax:depth=3", "mcts:iterations=2000", "expectimax:depth=3", "maxn:depth=3", "paranoid:depth=4"];

function defaultAgent(game) {
  if (game.chance) return "expectimax:depth=3";
  if (game.players.length > 2) return "maxn:depth=3";
  return "alphabeta:depth=4";
}

export async function show(section, name) {
  P.section = section;
  if (name && name !== P.spec) {
    P.spec = name;
    await start(api("/api/sessions", { spec: name }));
  } else if (P.view) {
    render();
  } else {
    clear(section, el("p", { class: "lead" }, "Open a game from the ", el("a", { href: "#library" }, "library"),
                      " or play the text of the ", el("a", { href: "#editor" }, "editor"), "."));
  }
}

// A session from spec text (the editor's Play button).
export async function openText(text, format) {
  const view = await api("/api/sessions", { text, format });
  P.spec = null;
  P.lastText = text;
  P.view = null;
  await start(Promise.resolve(view));
  location.hash = "#play";
}

async function start(pending) {
  const view = await pending;
  const game = view.game;
  if (!P.view || P.view.game.name !== game.name || P.seats.length !== game.players.length)
    P.seats = game.players.map((_, i) => (i === 0 || game.players.length === 1) ? "human" : defaultAgent(game));
  P.view = view;
  P.prefix = [];
  render();
  next();
}

async function update(pending) {
  try {
    P.view = await pending;
    P.prefix = [];
    render();
    next();
  } catch (error) { fail(error); render(); }
}

function moveBy(body) { return update(api(`/api/sessions/${P.view.id}/move`, body)); }

// After each change: draw chance at once (if asked), or let a computer seat move.
function next() {
  const v = P.view;
  if (!v || v.terminal || P.busy) return;
  if (v.to_move === "chance") {
    if (P.autoChance) setTimeout(() => { if (P.view === v) moveBy({ random: true }); }, 350);
    return;
  }
  const seat = P.seats[v.game.players.indexOf(v.to_move)];
  if (seat && seat !== "human") computerMove(seat);
}

async function computerMove(agent) {
  const v = P.view;
  P.busy = true;
  render();
  try {
    await runJob(`/api/sessions/${v.id}/agent`, { agent, play: true }, job => {
      const box = document.getElementById("thinking");
      if (box) box.textContent = `${agent} thinking… ${job.seconds.toFixed(1)} s`;
    }, P.holder);
    P.busy = false;
    await update(api(`/api/sessions/${v.id}`));
  } catch (error) {
    P.busy = false;
    fail(error);
    render();
  }
}

function undo() {
  // back to before the last move made at a human seat (the computer's replies go too)
  const moves = P.view.moves, players = P.view.game.players;
  let plies = 0;
  while (plies < moves.length) {
    const move = moves[moves.length - 1 - plies++];
    if (P.seats[players.indexOf(move.player)] === "human") break;
  }
  update(api(`/api/sessions/${P.view.id}/undo`, { plies }));
}

// -- clicks on the board ------------------------------------------------------------------
function candidates() {
  const key = c => c.join(",");
  const prefix = P.prefix.map(key);
  return P.view.actions.filter(a => a.cells.length > 0 && prefix.every((p, i) => a.cells[i] && key(a.cells[i]) === p));
}

function columnMode(v) {
  return v.board && v.actions.length > 0 && v.actions.every(a => a.column !== null && a.cells.length === 0 && a.column < v.board.width);
}

function humanToMove() {
  const v = P.view;
  return v && !v.terminal && v.to_move !== "chance" && !P.busy &&
    P.seats[v.game.players.indexOf(v.to_move)] === "human";
}

function onCell(x, y) {
  const v = P.view;
  if (!humanToMove()) return;
  if (columnMode(v)) {
    const action = v.actions.find(a => a.column === x);
    if (action) moveBy({ index: action.index });
    return;
  }
  const here = `${x},${y}`;
  const open = candidates().filter(a => a.cells.length > P.prefix.length && a.cells[P.prefix.length].join(",") === here);
  if (!open.length) {
    P.prefix = [];
    if (v.actions.some(a => a.cells.length && a.cells[0].join(",") === here)) return onCell(x, y);
    render();
    return;
  }
  P.prefix = [...P.prefix, [x, y]];
  const complete = open.filter(a => a.cells.length === P.prefix.length);
  if (complete.length === 1 && open.length === 1) return moveBy({ index: complete[0].index });
  render();
}

function marks(v) {
  const out = {};
  lastMove(v, out);
  if (!humanToMove()) return out;
  if (columnMode(v)) {
    for (const a of v.actions) for (let y = 0; y < v.board.height; y++) out[`${a.column},${y}`] = "legal column";
    return out;
  }
  for (const c of P.prefix) out[c.join(",")] = "chosen";
  for (const a of candidates())
    if (a.cells.length > P.prefix.length) out[a.cells[P.prefix.length].join(",")] = "legal";
  return out;
}

function lastMove(v, out) {
  const last = v.moves.length ? v.moves[v.moves.length - 1] : null;
  const match = last && last.text.match(/\((.*)\)/);
  if (match) {
    const nums = match[1].split(",").map(Number);
    for (let i = 0; i + 1 < nums.length; i += 2) out[`${nums[i]},${nums[i + 1]}`] = "last";
  }
}

// -- drawing ---------------------------------------------------------------------------
function render() {
  const v = P.view, section = P.section;
  if (!v || !section) return;
  const game = v.game;
  const status = v.terminal ? el("div", { class: "status end", id: "result" }, `Game over: ${v.result}`)
    : v.to_move === "chance" ? el("div", { class: "status" }, "Chance to move")
    : el("div", { class: "status" }, `${v.to_move} to move`,
         P.busy ? el("span", { id: "thinking", class: "thinking" }, " thinking…") : null);
  const left = el("div", { class: "left" },
    el("h2", {}, game.name, el("span", { class: "sub" }, ` ${game.players.join(" vs ")}`)),
    status,
    v.board ? drawBoard(v.board, marks(v), onCell) : null,
    v.variables.length ? el("table", { class: "variables" },
      v.variables.map(([name, text]) => el("tr", {}, el("th", {}, name), el("td", {}, text)))) : null,
    P.prefix.length ? choices() : null,
    v.chance ? chancePanel(v) : null,
    v.terminal ? returnsTable(v) : null,
    actionList(v));
  const right = el("div", { class: "right" }, seatsCard(v), buttons(v), moveList(v));
  clear(section, el("div", { class: "play" }, left, right));
}

function choices() {
  const open = candidates();
  return el("div", { class: "choices" },
    `picked ${P.prefix.map(c => `(${c})`).join(" → ")}: click the next cell`,
    open.filter(a => a.cells.length === P.prefix.length).map(a =>
      el("button", { onclick: () => moveBy({ index: a.index }) }, a.text)),
    el("button", { class: "quiet", onclick: () => { P.prefix = []; render(); } }, "cancel"));
}

function chancePanel(v) {
  return el("div", { class: "card chance" }, el("h3", {}, "Chance outcomes"),
    el("div", { class: "outcomes" }, v.chance.map(o =>
      el("button", { class: "outcome", onclick: () => moveBy({ index: o.index }) },
         o.text, el("span", { class: "p" }, ` p=${num(o.probability)}`)))),
    el("button", { id: "draw", onclick: () => moveBy({ random: true }) }, "draw at random"));
}

function returnsTable(v) {
  return el("table", { class: "returns" }, el("tr", {}, el("th", {}, "player"), el("th", {}, "return")),
    v.game.players.map((p, i) => el("tr", {}, el("td", {}, p), el("td", {}, num(v.returns[i])))));
}

function actionList(v) {
  if (v.terminal || v.to_move === "chance") return null;
  const shown = v.actions.filter(a => !P.filter || a.text.includes(P.filter));
  const list = el("div", { class: "actions" }, shown.slice(0, 400).map(a =>
    el("button", { class: "action", disabled: !humanToMove(), onclick: () => moveBy({ index: a.index }) }, a.text)));
  return el("div", { class: "card" },
    el("h3", {}, `Legal actions (${v.actions_total})`,
      v.actions_total > 20 ? el("input", { class: "filter", placeholder: "filter", value: P.filter,
        oninput: e => { P.filter = e.target.value; const pos = e.target.selectionStart; render();
                        const f = P.section.querySelector(".filter"); f.focus(); f.setSelectionRange(pos, pos); } }) : null),
    list, shown.length > 400 ? el("p", { class: "sub" }, `${shown.length - 400} more: filter them`) : null);
}

function seatsCard(v) {
  const list = el("datalist", { id: "agents" }, PRESETS.map(p => el("option", { value: p })));
  return el("div", { class: "card" }, el("h3", {}, "Seats"), list,
    v.game.players.map((p, i) => el("label", { class: "seat" }, el("span", {}, p),
      el("input", { list: "agents", value: P.seats[i], "data-seat": i, spellcheck: "false",
        onchange: e => { P.seats[i] = e.target.value.trim() || "human"; render(); next(); } }))),
    v.game.chance ? el("label", { class: "seat" }, el("input", { type: "checkbox", id: "auto-chance", checked: P.autoChance,
      onchange: e => { P.autoChance = e.target.checked; next(); } }), " chance draws its outcomes by itself") : null);
}

function buttons(v) {
  const seat = v.to_move && v.to_move !== "chance" ? P.seats[v.game.players.indexOf(v.to_move)] : null;
  const agent = seat && seat !== "human" ? seat : defaultAgent(v.game);
  return el("div", { class: "buttons" },
    el("button", { id: "ai-move", disabled: v.terminal || v.to_move === "chance" || P.busy,
                   onclick: () => computerMove(agent) }, v.to_move && v.to_move !== "chance" ? `Move for ${v.to_move} (${agent})` : "AI move"),
    el("button", { id: "undo", disabled: !v.moves.length || P.busy, onclick: undo }, "Undo"),
    el("button", { id: "stop", disabled: !P.busy, onclick: () => cancelJob(P.holder) }, "Stop"),
    el("button", { id: "restart", onclick: () => start(api("/api/sessions", P.view.source.kind === "spec"
      ? { spec: P.view.source.name, options: P.view.source.options }
      : { text: P.lastText, format: P.view.source.format })) }, "New game"),
    el("a", { class: "button", href: "#search" }, "Search tree here"));
}

function moveList(v) {
  return el("div", { class: "card" }, el("h3", {}, "Moves"),
    v.moves.length ? el("ol", { class: "moves", id: "moves" }, v.moves.map(m => el("li", { class: m.by },
      el("b", {}, m.player), " ", m.text,
      m.by === "chance" && m.search ? el("span", { class: "detail" }, ` (p=${num(m.search.probability)})`) : null,
      m.by === "agent" && m.search ? el("div", { class: "detail" },
        m.search.value !== undefined ? `value ${num(m.search.value)}, depth ${m.search.depth}, ${m.search.nodes.toLocaleString()} nodes, ${m.search.time_s} s` : m.search.agent,
        m.search.pv && m.search.pv.length ? el("div", { class: "pv" }, "PV: " + m.search.pv.join(" ")) : null) : null)))
      : el("p", { class: "sub" }, "no moves yet"));
}
