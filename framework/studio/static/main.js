// The page: one view per tab (#library, #play/NAME, #search, #editor/NAME, #plan/NAME),
// shown by the address's hash; the library is loaded once and shared.
import { api, el, clear, fail } from "./util.js";
import * as play from "./play.js";
import * as search from "./search.js";
import * as editor from "./editor.js";
import * as plan from "./plan.js";

export const app = { specs: null };

async function specs() {
  if (!app.specs) app.specs = (await api("/api/specs")).specs;
  return app.specs;
}

async function showLibrary(section) {
  if (!app.specs) clear(section, el("p", { class: "lead" }, "Reading the library…"));
  const rows = await specs();
  const table = (kind, title) => {
    const mine = rows.filter(r => (r.kind === kind) || (kind === "planning" && r.kind === "pddl"));
    if (!mine.length) return null;
    return el("div", { class: "card" }, el("h2", {}, title),
      el("table", { class: "library" },
        el("tr", {}, el("th", {}, "name"), el("th", {}, "what"), el("th", {}, "")),
        mine.map(r => el("tr", { "data-spec": r.name },
          el("td", {}, el("b", {}, r.name), r.source === "folder" ? el("span", { class: "tag" }, "folder") : null),
          el("td", {}, describe(r)),
          el("td", { class: "open" }, r.error ? "" : r.kind === "game"
            ? [el("a", { href: `#play/${r.name}`, class: "button" }, "Play"), " ",
               r.players && r.players.length === 1 ? [el("a", { href: `#plan/${r.name}`, class: "button" }, "Plan"), " "] : null,
               el("a", { href: `#editor/${r.name}` }, "edit")]
            : [el("a", { href: `#plan/${r.name}`, class: "button" }, "Plan"), " ",
               r.kind !== "pddl" ? el("a", { href: `#editor/${r.name}` }, "edit") : null])))));
  };
  clear(section,
    el("p", { class: "lead" }, "Every shipped game and planning problem (as ", el("code", {}, "plyspec list"),
       " shows them) and the spec files of the folder the studio was started with. Open one to play it or plan it; ",
       el("a", { href: "#editor" }, "write a new game"), " in the editor."),
    el("div", { class: "columns" }, table("game", "Games"), table("planning", "Planning problems")));
}

function describe(r) {
  if (r.error) return `does not load: ${r.error}`;
  if (r.kind === "planning") return r.objects !== undefined ? `${r.objects} objects, ${r.actions} action schemas` : "planning problem";
  if (r.kind === "pddl") return "PDDL file";
  if (!r.game) return "game spec";
  const parts = [`${r.game}: ${r.players.length} player${r.players.length === 1 ? "" : "s"}${r.chance ? ", chance" : ""}`];
  if (r.solved) parts.push(`solved: ${r.solved.says}`);
  return parts.join("; ");
}

const VIEWS = { library: showLibrary, play: play.show, search: search.show, editor: editor.show, plan: plan.show };

async function route() {
  const [view, ...rest] = (location.hash.slice(1) || "library").split("/");
  const name = decodeURIComponent(rest.join("/"));
  const shown = VIEWS[view] ? view : "library";
  for (const section of document.querySelectorAll("section.view")) section.hidden = section.id !== shown;
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("active", link.dataset.view === shown);
  try {
    await VIEWS[shown](document.getElementById(shown), name, app);
  } catch (error) { fail(error); }
}

app.library = specs;
window.addEventListener("hashchange", route);
route();
