// The search view: the tree plain minimax or alpha-beta explores from the play view's
// position (the tree `plyspec tree` draws, from the same code), stepped through node by
// node: each node appears when the search enters it with its window [alpha, beta], gets its
// value when the search leaves it, and shows the moves cut off below it; at the end the
// principal variation is highlighted.  A click on a node folds or unfolds its subtree.
import { api, runJob, el, svg, clear, fail, num } from "./util.js";
import { P } from "./play.js";

const S = { tree: null, step: 0, timer: null, folded: new Set(), nodes: [], section: null,
            algo: "alphabeta", depth: 3, maxNodes: 2000, forSession: null };
const LEAF = 58, LEVEL = 84, MARGIN = 24;

export async function show(section) {
  S.section = section;
  if (!P.view) {
    clear(section, el("p", { class: "lead" }, "The search view draws the tree from the position of the play view: ",
      el("a", { href: "#play/tictactoe" }, "start tic-tac-toe"), " (or any two-player game without chance) and come back."));
    return;
  }
  const game = P.view.game;
  if (game.players.length !== 2 || game.chance) {
    clear(section, el("p", { class: "lead" }, `The search view draws minimax and alpha-beta trees of two-player games `,
      `without chance; ${game.name} has ${game.players.length} player(s)${game.chance ? " and chance" : ""}. `,
      el("a", { href: "#play/tictactoe" }, "Play tic-tac-toe"), " and come back."));
    return;
  }
  if (S.forSession !== `${P.view.id}:${P.view.ply}`) { S.tree = null; }
  render();
}

async function build() {
  stop();
  try {
    const body = { algo: S.algo, max_nodes: S.maxNodes };
    if (S.depth !== "") body.depth = Number(S.depth);
    const tree = await runJob(`/api/sessions/${P.view.id}/tree`, body);
    S.tree = tree;
    S.forSession = `${P.view.id}:${P.view.ply}`;
    S.nodes = [];
    S.folded = new Set();
    const index = (node, path, parent) => {
      node.path = path; node.parent = parent; node.id = S.nodes.length; S.nodes.push(node);
      node.children.forEach(c => index(c, [...path, c.action], node));
    };
    index(tree.root, [], null);
    let node = tree.root;           // the principal variation: the child that set each value
    node.pv = true;
    while (node.children.length) {
      node = node.children.find(c => c.value === node.value) || node.children[0];
      node.pv = true;
    }
    S.step = 0;
    render();
  } catch (error) { fail(error); }
}

function stop() { clearInterval(S.timer); S.timer = null; }

function go(step) {
  S.step = Math.max(0, Math.min(S.tree.steps - 1, step));
  if (S.step === S.tree.steps - 1) stop();
  render();
}

function render() {
  const section = S.section;
  const v = P.view;
  const controls = el("div", { class: "card controls" },
    el("h3", {}, `${v.game.name}: the tree from ply ${v.ply} (${v.to_move || "the end"} to move)`),
    el("label", {}, "algorithm ", el("select", { id: "algo", onchange: e => { S.algo = e.target.value; } },
      ["alphabeta", "minimax"].map(a => el("option", { value: a, selected: a === S.algo }, a)))),
    el("label", {}, " depth ", el("input", { id: "depth", type: "number", min: 0, max: 200, value: S.depth, style: "width:60px",
      title: "plies (empty: to the end)", onchange: e => { S.depth = e.target.value; } })),
    el("label", {}, " node limit ", el("input", { id: "max-nodes", type: "number", min: 1, max: 20000, value: S.maxNodes,
      style: "width:80px", onchange: e => { S.maxNodes = Number(e.target.value); } })),
    " ", el("button", { id: "build", class: "primary", onclick: build }, "Build tree"));
  if (!S.tree) return clear(section, controls);
  const t = S.tree, s = S.step;
  const event = eventAt(s);
  const done = S.nodes.filter(n => n.exit <= s);
  const prunedSoFar = done.reduce((sum, n) => sum + n.pruned.length, 0);
  const stepper = el("div", { class: "stepper" },
    el("button", { id: "first", onclick: () => { stop(); go(0); } }, "|◀ first"),
    el("button", { id: "back", onclick: () => { stop(); go(s - 1); } }, "◀ back"),
    el("button", { id: "forward", onclick: () => { stop(); go(s + 1); } }, "forward ▶"),
    el("button", { id: "last", onclick: () => { stop(); go(t.steps - 1); } }, "last ▶|"),
    el("button", { id: "play-tree", onclick: () => {
      if (S.timer) return (stop(), render());
      S.timer = setInterval(() => go(S.step + 1), 350); } }, S.timer ? "pause" : "play"),
    el("input", { type: "range", min: 0, max: t.steps - 1, value: s, oninput: e => { stop(); go(Number(e.target.value)); } }),
    el("span", { class: "sub", id: "step" }, ` step ${s + 1} of ${t.steps}`));
  const stats = el("div", { class: "stats" },
    el("span", {}, "nodes entered ", el("b", {}, S.nodes.filter(n => n.enter <= s).length), ` of ${t.nodes}`),
    el("span", {}, "pruned branches ", el("b", { id: "pruned-so-far" }, prunedSoFar), " of ", el("b", { id: "pruned-total" }, t.pruned)),
    el("span", {}, "cut-offs ", el("b", {}, done.filter(n => n.pruned.length).length), ` of ${t.cutoffs}`),
    s === t.steps - 1 ? el("span", { class: "pv" }, `value ${num(t.root.value)}; PV: ${t.pv.join(" ") || "–"}`) : null);
  clear(section, controls, el("div", { class: "card" }, stepper, stats, el("div", { class: "event", id: "event" }, describe(event))),
        el("div", { class: "tree-box" }, drawTree(s, event)));
  const current = section.querySelector(".current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest", inline: "center" });
}

function eventAt(s) {
  for (const n of S.nodes) {
    if (n.enter === s) return { node: n, kind: "enter" };
    if (n.exit === s) return { node: n, kind: "exit" };
  }
  return null;
}

function describe(event) {
  if (!event) return "";
  const n = event.node;
  const where = n.path.length ? n.path.join(" → ") : "the root";
  const role = n.kind === "terminal" ? "end of the game" : n.kind === "horizon" ? "depth cut-off (evaluated)" : n.max ? "MAX node" : "MIN node";
  const window = S.tree.algorithm === "alphabeta" ? ` with the window [${num(n.alpha)}, ${num(n.beta)}]` : "";
  if (event.kind === "enter") return `Enter ${where}: ${role}, ${n.player} to move${window}.`;
  const cut = n.pruned.length ? ` Cut off (value outside the window): ${n.pruned.join(", ")} not searched.` : "";
  return `Leave ${where}: value ${num(n.value)}.${cut}`;
}

function drawTree(s, event) {
  let next = 0;
  const place = (n, level) => {
    n.level = level;
    const slots = [];
    if (!S.folded.has(n.id)) for (const c of n.children) if (c.enter <= s) slots.push(place(c, level + 1));
    if (n.pruned.length && n.exit <= s && !S.folded.has(n.id)) { n.cutX = next++; slots.push(n.cutX); }
    else n.cutX = null;
    n.x = slots.length ? (slots[0] + slots[slots.length - 1]) / 2 : next++;
    return n.x;
  };
  place(S.tree.root, 0);
  const visible = S.nodes.filter(n => n.enter <= s && !hiddenByFold(n));
  const depth = Math.max(...visible.map(n => n.level)) + 1;
  const W = Math.max(next, 1) * LEAF + 2 * MARGIN, H = depth * LEVEL + 2 * MARGIN + 20;
  const pos = (x, level) => [MARGIN + LEAF / 2 + x * LEAF, MARGIN + 16 + level * LEVEL];
  const root = svg("svg", { width: W, height: H, class: "tree", id: "tree-svg" });
  const last = s === S.tree.steps - 1;
  for (const n of visible) {
    const [x0, y0] = pos(n.x, n.level);
    if (n.parent) {
      const [x1, y1] = pos(n.parent.x, n.parent.level);
      root.append(svg("line", { x1, y1: y1 + 12, x2: x0, y2: y0 - 14, class: last && n.pv ? "edge pv" : "edge" }));
      root.append(svg("text", { x: x0, y: y0 - 18, class: "edge-label" }, n.action));
    }
    if (n.cutX !== null) {
      const [xc, yc] = pos(n.cutX, n.level + 1);
      root.append(svg("line", { x1: x0, y1: y0 + 12, x2: xc, y2: yc - 14, class: "edge cut" }));
      root.append(svg("text", { x: xc, y: yc, class: "cut-label pruned" }, "✂ pruned"));
      root.append(svg("text", { x: xc, y: yc + 12, class: "cut-moves" }, n.pruned.join(", ")));
    }
  }
  for (const n of visible) root.append(nodeShape(n, ...pos(n.x, n.level), s, event, last));
  return root;
}

function hiddenByFold(n) {
  for (let p = n.parent; p; p = p.parent) if (S.folded.has(p.id)) return true;
  return false;
}

function nodeShape(n, x, y, s, event, last) {
  const current = event && event.node === n;
  const cls = `node ${n.kind} ${n.max ? "max" : "min"}${current ? " current" : ""}${last && n.pv ? " pv" : ""}`;
  const g = svg("g", { class: cls, "data-id": n.id, onclick: () => {
    if (!n.children.length) return;
    S.folded.has(n.id) ? S.folded.delete(n.id) : S.folded.add(n.id);
    render(); } });
  if (S.folded.has(n.id)) {
    const count = subtreeSize(n) - 1;
    g.append(svg("rect", { x: x - 26, y: y - 12, width: 52, height: 28, rx: 6, class: "folded" }),
             svg("text", { x, y: y + 1, class: "value" }, n.exit <= s ? num(n.value) : "?"),
             svg("text", { x, y: y + 12, class: "window" }, `+${count} nodes`));
    return g;
  }
  if (n.kind === "terminal") g.append(svg("rect", { x: x - 14, y: y - 11, width: 28, height: 22 }));
  else if (n.kind === "horizon") g.append(svg("ellipse", { cx: x, cy: y, rx: 15, ry: 11 }));
  else {
    const [tip, base] = n.max ? [y - 14, y + 11] : [y + 14, y - 11];
    g.append(svg("polygon", { points: `${x},${tip} ${x - 15},${base} ${x + 15},${base}` }));
  }
  g.append(svg("text", { x, y: y + 4, class: "value" }, n.exit <= s ? num(n.value) : "?"));
  if (S.tree.algorithm === "alphabeta")
    g.append(svg("text", { x, y: y + 25, class: "window" }, `[${num(n.alpha)}, ${num(n.beta)}]`));
  g.append(svg("title", {}, `${n.path.join(" ") || "root"}: ${n.kind === "inner" ? (n.max ? "MAX" : "MIN") : n.kind}; click to fold or unfold`));
  return g;
}

function subtreeSize(n) { return 1 + n.children.reduce((sum, c) => sum + subtreeSize(c), 0); }
