// The board editor: a grid of cells around the current board; a click adds or removes a
// hole, a peg, or sets the goal hole.  The drawing is built with DOM calls (no HTML
// strings); the result is handed to the engine (custom_board), which validates it.

const SVG_NS = "http://www.w3.org/2000/svg";
const UNIT = 40;
const ROW = 0.8660254037844386;

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class Editor {
  constructor(holder, tools) {
    this.holder = holder;
    this.tools = tools;
    this.cells = new Map(); // "r,c" -> {r, c, on, peg, g}
    this.goal = null;
    this.lattice = "square";
    this.open = false;
  }

  tool() {
    return this.tools.querySelector("input[name=tool]:checked")?.value || "hole";
  }

  /** Open on a game state from the engine: its cells, pegs and goal hole. */
  start(state) {
    this.lattice = state.board.lattice;
    const pegs = new Set(state.pegs);
    const byCell = new Map(state.cells.map((c) => [`${c.r},${c.c}`, c]));
    const rs = state.cells.map((c) => c.r);
    const cs = state.cells.map((c) => c.c);
    const [r0, r1] = [Math.min(...rs) - 1, Math.max(...rs) + 1];
    const [c0, c1] = [Math.min(...cs) - 1, Math.min(Math.max(...cs) + 1, Math.min(...cs) + 24)];
    this.cells.clear();
    this.goal = null;
    // on the triangular lattice keep the cells drawn within one unit of the board's width
    const across = (r, c) => (this.lattice === "square" ? c : c - r / 2);
    const xs = state.cells.map((cell) => across(cell.r, cell.c));
    const [x0, x1] = [Math.min(...xs) - 1, Math.max(...xs) + 1];
    for (let r = r0; r <= r1; r++) {
      for (let c = c0 - (this.lattice === "square" ? 0 : 2); c <= c1 + (this.lattice === "square" ? 0 : 1); c++) {
        if (across(r, c) < x0 - 0.01 || across(r, c) > x1 + 0.01) continue;
        const known = byCell.get(`${r},${c}`);
        this.cells.set(`${r},${c}`, { r, c, on: !!known, peg: known ? pegs.has(known.name) : false });
        if (known && state.goal.hole === known.name) this.goal = `${r},${c}`;
      }
    }
    this.draw(r0, c0);
    this.tools.hidden = false;
    this.open = true;
  }

  _xy(r, c, r0, c0) {
    if (this.lattice === "square") return [(c - c0 + 0.5) * UNIT, (r - r0 + 0.5) * UNIT];
    return [(c - c0 - (r - r0) / 2 + 0.5) * UNIT, ((r - r0) * ROW + 0.5) * UNIT];
  }

  draw(r0, c0) {
    const pts = [...this.cells.values()].map((cell) => this._xy(cell.r, cell.c, r0, c0));
    const minX = Math.min(...pts.map((p) => p[0])) - UNIT / 2;
    const maxX = Math.max(...pts.map((p) => p[0])) + UNIT / 2;
    const maxY = Math.max(...pts.map((p) => p[1])) + UNIT / 2;
    const svg = el("svg", { class: "board editor", viewBox: `${minX} 0 ${maxX - minX} ${maxY}`, role: "img",
                            "aria-label": "Board editor" });
    const h = this.lattice === "square" ? UNIT : UNIT * ROW;
    for (const [key, cell] of this.cells) {
      const [x, y] = this._xy(cell.r, cell.c, r0, c0);
      const g = el("g", { "data-cell": key });
      g.append(el("rect", { class: "hit", x: x - UNIT / 2, y: y - h / 2, width: UNIT, height: h }),
               el("circle", { class: "ghost", cx: x, cy: y, r: UNIT * 0.3 }),
               el("circle", { class: "socket", cx: x, cy: y, r: UNIT * 0.34 }),
               el("circle", { class: "pin", cx: x, cy: y, r: UNIT * 0.34 }));
      cell.g = g;
      svg.append(g);
      this._paint(key);
    }
    svg.addEventListener("click", (event) => {
      const g = event.target.closest?.("[data-cell]");
      if (g) this.toggle(g.dataset.cell);
    });
    this.holder.replaceChildren(svg);
  }

  _paint(key) {
    const cell = this.cells.get(key);
    cell.g.setAttribute("class", ["cell", cell.on ? "on" : "", cell.on && cell.peg ? "peg" : "",
                                  this.goal === key ? "goal" : ""].filter(Boolean).join(" "));
  }

  toggle(key) {
    const cell = this.cells.get(key);
    if (!cell) return;
    const tool = this.tool();
    if (tool === "hole") {
      cell.on = !cell.on;
      cell.peg = cell.on;
      if (!cell.on && this.goal === key) {
        this.goal = null;
      }
    } else if (tool === "peg") {
      if (!cell.on) cell.on = true;
      else cell.peg = !cell.peg;
    } else if (tool === "goal" && cell.on) {
      const old = this.goal;
      this.goal = old === key ? null : key;
      if (old && old !== key) this._paint(old);
    }
    this._paint(key);
  }

  fill() {
    for (const [key, cell] of this.cells) {
      if (cell.on) {
        cell.peg = true;
        this._paint(key);
      }
    }
  }

  /** The request for the engine's custom_board. */
  result() {
    const cells = [...this.cells.values()].filter((c) => c.on).map((c) => [c.r, c.c, c.peg ? 1 : 0]);
    const goal = this.goal ? this.goal.split(",").map(Number) : null;
    return { lattice: this.lattice, cells, goal };
  }

  close() {
    this.open = false;
    this.tools.hidden = true;
  }
}
