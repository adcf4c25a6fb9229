// The board view: inserts the SVG drawn by pyapp.core.render, toggles hole classes,
// animates jumps (the peg travels, the jumped peg fades) and keeps a keyboard focus ring.

const SVG_NS = "http://www.w3.org/2000/svg";
const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** The point of `points` (a Map name -> {x, y}) nearest to `from` in direction (dx, dy): ahead
 *  by more than a quarter `unit`, preferring those straight ahead.  Null when there is none. */
export function nearestInDirection(points, from, dx, dy, unit) {
  const cur = points.get(from);
  let best = null;
  let bestScore = Infinity;
  for (const [name, h] of points) {
    const along = (h.x - cur.x) * dx + (h.y - cur.y) * dy;
    if (along <= unit * 0.25) continue;
    const across = Math.abs((h.x - cur.x) * dy - (h.y - cur.y) * dx);
    const score = along + 2.5 * across;
    if (score < bestScore) {
      bestScore = score;
      best = name;
    }
  }
  return best;
}

/** The smallest distance between two of `points` ({x, y}): the lattice's unit (40 when unknown). */
export function spacing(points) {
  const all = [...points];
  let best = Infinity;
  for (const h of all) {
    for (const o of all) if (o !== h) best = Math.min(best, Math.hypot(o.x - h.x, o.y - h.y));
  }
  return Number.isFinite(best) ? best : 40;
}

export class BoardView {
  constructor(holder) {
    this.holder = holder;
    this.svg = null;
    this.holes = new Map(); // name -> {el, pin, x, y}
    this.key = null;
    this.focusName = null;
    this.animations = new Set();
  }

  /** Replace the SVG when the board changed; returns true when it did. */
  setSvg(svgText, key) {
    if (key === this.key && this.svg) return false;
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const root = doc.documentElement;
    if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || doc.querySelector("parsererror, script, foreignObject")) {
      throw new Error("the engine sent an unusable board drawing");
    }
    const svg = document.importNode(root, true);
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("focusable", "true");
    this.finishAnimations();
    this.holder.replaceChildren(svg);
    this.holder.classList.remove("loading");
    this.svg = svg;
    this.key = key;
    this.holes.clear();
    for (const el of svg.querySelectorAll("[data-hole]")) {
      this.holes.set(el.dataset.hole, {
        el, pin: el.querySelector(".pin"), x: parseFloat(el.dataset.x), y: parseFloat(el.dataset.y),
      });
    }
    this.unit = spacing(this.holes.values());
    this.focusName = this.holes.has(this.focusName) ? this.focusName : null;
    return true;
  }

  has(name) { return this.holes.has(name); }
  isPeg(name) { return !!this.holes.get(name)?.el.classList.contains("peg"); }

  setPegs(names) {
    const pegs = new Set(names);
    for (const [name, h] of this.holes) h.el.classList.toggle("peg", pegs.has(name));
  }

  /** Give exactly `names` the class `cls`. */
  mark(cls, names = []) {
    const set = new Set(names);
    for (const [name, h] of this.holes) h.el.classList.toggle(cls, set.has(name));
  }

  setLast(jump) {
    this.mark("last-from", jump ? [jump[0]] : []);
    this.mark("last-over", jump ? [jump[1]] : []);
    this.mark("last-to", jump ? [jump[2]] : []);
  }

  setGoal(name) { this.mark("goal", name ? [name] : []); }

  /** Small text under holes ({name: text}), e.g. the solutions through each target; {} removes them. */
  setLabels(labels) {
    if (!this.svg) return;
    this.svg.querySelector("g.hole-labels")?.remove();
    const entries = Object.entries(labels).filter(([name]) => this.holes.has(name));
    if (!entries.length) return;
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "hole-labels");
    g.setAttribute("aria-hidden", "true"); // the same numbers are in the funnel list, as text
    for (const [name, text] of entries) {
      const h = this.holes.get(name);
      const t = document.createElementNS(SVG_NS, "text");
      for (const [k, v] of [["x", h.x], ["y", h.y + this.unit * 0.62], ["text-anchor", "middle"],
        ["font-size", this.unit * 0.26], ["class", "hole-label"]]) t.setAttribute(k, String(v));
      t.textContent = text;
      g.append(t);
    }
    this.svg.append(g);
  }

  /** Animate one jump [from, over, to]; `reverse` plays it backwards (an undo). Resolves when done. */
  animateJump(jump, { duration = 320, reverse = false } = {}) {
    const [fromName, overName, toName] = jump;
    const from = this.holes.get(reverse ? toName : fromName);
    const to = this.holes.get(reverse ? fromName : toName);
    const over = this.holes.get(overName);
    if (!from || !to || !over) return Promise.resolve();
    const finish = () => {
      from.el.classList.remove("peg");
      to.el.classList.add("peg");
      over.el.classList.toggle("peg", reverse);
    };
    if (!duration || reducedMotion() || !this.svg) {
      finish();
      return Promise.resolve();
    }
    const ghost = document.createElementNS(SVG_NS, "circle");
    ghost.setAttribute("class", "anim-pin");
    ghost.setAttribute("cx", String(from.x));
    ghost.setAttribute("cy", String(from.y));
    ghost.setAttribute("r", from.pin?.getAttribute("r") || "13.6");
    ghost.style.transformBox = "fill-box";
    ghost.style.transformOrigin = "center";
    this.svg.appendChild(ghost);
    from.el.classList.remove("peg");
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const travel = ghost.animate([
      { transform: "translate(0px, 0px) scale(1)" },
      { transform: `translate(${dx / 2}px, ${dy / 2}px) scale(1.25)` },
      { transform: `translate(${dx}px, ${dy}px) scale(1)` },
    ], { duration, easing: "ease-in-out", fill: "forwards" });
    if (reverse) over.el.classList.add("peg");
    const fade = over.pin?.animate(
      reverse ? [{ opacity: 0 }, { opacity: 1 }] : [{ opacity: 1 }, { opacity: 0 }],
      { duration, easing: "ease-in", fill: "forwards" },
    );
    const entry = { travel, fade, ghost, finish };
    this.animations.add(entry);
    return travel.finished.catch(() => {}).then(() => this._end(entry));
  }

  _end(entry) {
    if (!this.animations.delete(entry)) return;
    entry.finish();
    entry.fade?.cancel();
    entry.ghost.remove();
  }

  /** Jump every running animation to its end state (before a redraw). */
  finishAnimations() {
    for (const entry of [...this.animations]) {
      entry.travel.cancel();
      this._end(entry);
    }
  }

  // ---------------------------------------------------------------- focus ring
  setFocus(name) {
    if (!this.holes.has(name)) return;
    this.focusName = name;
    this.mark("focus", [name]);
  }

  /** Move the focus ring to the nearest hole in direction (dx, dy) (unit steps). */
  moveFocus(dx, dy) {
    const names = [...this.holes.keys()];
    if (!names.length) return null;
    if (!this.holes.get(this.focusName)) {
      this.setFocus(names[0]);
      return names[0];
    }
    const best = nearestInDirection(this.holes, this.focusName, dx, dy, this.unit);
    if (best) this.setFocus(best);
    return best;
  }

  /** The hole under a client point (nearest centre within half a unit), or null. */
  holeAt(clientX, clientY) {
    if (!this.svg) return null;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    let best = null;
    let bestD = this.unit * 0.6;
    for (const [name, h] of this.holes) {
      const d = Math.hypot(h.x - p.x, h.y - p.y);
      if (d < bestD) {
        bestD = d;
        best = name;
      }
    }
    return best;
  }

  /** Client-space delta to SVG user units (for dragging). */
  toUserDelta(dxClient, dyClient) {
    const ctm = this.svg?.getScreenCTM();
    if (!ctm) return [dxClient, dyClient];
    return [dxClient / ctm.a, dyClient / ctm.d];
  }
}
