// The board as SVG: cells from the spec's board size, each value's display symbol as its
// glyph, coordinates on the edges (x above the columns, y before the rows, as `plyspec play`
// prints them), and the cells to highlight.
import { svg } from "./util.js";

export const CELL = 46, EDGE = 22;
const COLOURS = ["#c0392b", "#1f5fa8", "#2e8b57", "#8e44ad", "#d35400", "#555"];

// marks: {key "x,y" -> class}; onCell(x, y) is called on a click.
export function drawBoard(board, marks, onCell) {
  const { width, height } = board;
  const values = Object.keys(board.symbols).filter(v => v !== board.default);
  const shear = board.shear || 0;              // Hex: each row half a cell to the right of the one above
  const W = EDGE + (width + shear * (height - 1)) * CELL + 4, H = EDGE + height * CELL + 4;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "board",
                            role: "grid", "aria-label": "board" });
  for (let x = 0; x < width; x++)
    root.append(svg("text", { x: EDGE + x * CELL + CELL / 2, y: 15, class: "coord" }, x));
  for (let y = 0; y < height; y++) {
    const left = EDGE + shear * y * CELL;
    root.append(svg("text", { x: left - 12, y: EDGE + y * CELL + CELL / 2 + 4, class: "coord" }, y));
    for (let x = 0; x < width; x++) {
      const value = board.cells[y][x];
      const mark = marks[`${x},${y}`] || "";
      const cell = svg("g", { class: `cell ${(x + y) % 2 ? "dark" : "light"} ${mark}`, "data-x": x, "data-y": y,
                              "data-value": value, onclick: () => onCell(x, y) });
      cell.append(svg("rect", { x: left + x * CELL, y: EDGE + y * CELL, width: CELL, height: CELL }));
      if (value !== board.default) {
        const i = values.indexOf(value);
        const glyph = board.symbols[value];          // letters get a colour per value; pictures (● ○) keep ink
        cell.append(svg("text", { x: left + x * CELL + CELL / 2, y: EDGE + y * CELL + CELL / 2 + 8, class: "piece",
                                  fill: /^[A-Za-z0-9]+$/.test(glyph) ? COLOURS[i % COLOURS.length] : "#222" }, glyph));
      }
      cell.append(svg("title", {}, `(${x},${y}) ${value}`));
      root.append(cell);
    }
  }
  return root;
}
