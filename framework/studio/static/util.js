// Shared helpers: the JSON API, building elements, messages, number formatting.

export async function api(path, body, method) {
  const options = body === undefined ? { method: method || "GET" }
    : { method: method || "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok && response.status !== 202) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.hint = data.hint; error.status = response.status;
    throw error;
  }
  return data;
}

// Run a job (an agent's move, a tree, a plan, a test) and poll it to its end; `onProgress`
// sees each running state; `holder.job` names the job so that a Stop button can cancel it.
export async function runJob(path, body, onProgress, holder = {}) {
  let job = await api(path, { ...body, wait: 0.5 });    // the server answers at the end, or with progress
  holder.job = job.id;
  while (job.status === "running") {
    if (onProgress) onProgress(job);
    job = await api(`/api/jobs/${job.id}?wait=0.5`);
  }
  holder.job = null;
  if (job.status !== "done") throw new Error(job.error || job.status);
  return job.result;
}

export function cancelJob(holder) {
  if (holder.job) api(`/api/jobs/${holder.job}`, undefined, "DELETE").catch(() => {});
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let messageTimer = null;
export function say(text, kind = "info") {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = kind;
  clearTimeout(messageTimer);
  if (kind !== "error") messageTimer = setTimeout(() => { box.textContent = ""; box.className = ""; }, 4000);
}

export function fail(error) {
  say(error.message + (error.hint ? ` (${error.hint})` : ""), "error");
}

// A value as people read it: "∞", "-∞", whole numbers plain, others to 3 decimals.
export function num(v) {
  if (v === null || v === undefined) return "–";
  if (v === "inf") return "∞";
  if (v === "-inf") return "-∞";
  if (typeof v === "number" && !Number.isInteger(v)) return String(Math.round(v * 1000) / 1000);
  return String(v);
}

export function clear(node, ...children) {
  node.replaceChildren(...children.flat().filter(c => c !== null && c !== undefined && c !== false));
  return node;
}
