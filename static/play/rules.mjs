// The rules in the page, for catalogue boards, so a game can be played from the first paint
// while Python starts: every fact comes from boards.json, which build.py writes from pyapp
// itself (pyapp/web/boarddata.py); nothing about the geometry is written here.  A state computed
// here has the shape and values of pyapp.web.api.state (tests/browser/test_rules.py plays random
// games on every board and compares).  Anything this module cannot read exactly (custom boards,
// positions given as text, target goals, unusual spellings, moves that do not replay, so also a
// `legal_prefix` request that would refuse a move) answers null, and the page asks the engine,
// whose messages stay the only ones.

import { MAX_MOVES, MAX_MOVES_CHARS } from "./limits.mjs";

const FORMAT = 1;

/** Consecutive jumps by one peg form one move: [[a,b,c],[c,d,e]] -> ["a-c-e"]. */
export function groupMoves(jumps) {
  const moves = [];
  let lastTo = null;
  for (const [from, , to] of jumps) {
    if (moves.length && lastTo === from) moves[moves.length - 1] += `-${to}`;
    else moves.push(`${from}-${to}`);
    lastTo = to;
  }
  return moves;
}

export class BoardRules {
  constructor(d) {
    this.d = d;
    this.n = d.names.length;
    this.index = new Map(d.names.map((name, i) => [name, i]));
    this.pair = new Map(d.jumps.map((j) => [j[0] * this.n + j[2], j])); // (from, to) -> jump
    this.info = { id: d.id, title: d.title, lattice: d.lattice, spec: d.id, catalogue: true, holes: this.n,
      default_goal: d.default_goal };
    this.cells = d.names.map((name, i) => ({ name, r: d.cells[i][0], c: d.cells[i][1], x: d.xy[i][0], y: d.xy[i][1] }));
  }

  /** A hole's index from text the engine would read as that hole, or -1. */
  hole(text) {
    const i = this.index.get(String(text).trim().toLowerCase());
    return i === undefined ? -1 : i;
  }

  /** The goal as pyapp.web.api describes it ({kind, hole, text, label, ...}; from boards.json), or
   *  null when only the engine can read it. */
  goal(text) {
    const low = String(text ?? this.d.default_goal).trim().toLowerCase();
    const goal = Object.hasOwn(this.d.goals, low) ? this.d.goals[low] : null;
    return goal ? { ...goal } : null;
  }

  /** Pegs (Uint8Array, 1 = peg) with the single vacancy `name`, or null. */
  start(name) {
    const i = this.hole(name ?? this.d.default_start);
    if (i < 0) return null;
    const pegs = new Uint8Array(this.n).fill(1);
    pegs[i] = 0;
    return pegs;
  }

  /** Legal jumps as index triples, in pyapp's order. */
  legalIndices(pegs) {
    return this.d.jumps.filter(([a, b, c]) => pegs[a] && pegs[b] && !pegs[c]);
  }

  /** The jump from hole `a` to hole `c` (indices) when it is legal in `pegs`, else null. */
  jumpIfLegal(pegs, a, c) {
    const j = this.pair.get(a * this.n + c);
    return j && pegs[j[0]] && pegs[j[1]] && !pegs[j[2]] ? j : null;
  }

  /** Jumps (index triples) of `moves` in notation played from `pegs` (changed in place), or null. */
  replay(pegs, moves) {
    const played = [];
    for (const move of moves) {
      if (typeof move !== "string" || move.length > 200) return null;
      const parts = move.trim().split(/\s*[-\u2013:]\s*/);
      if (parts.length < 2) return null;
      const holes = parts.map((p) => this.hole(p));
      if (holes.includes(-1)) return null;
      for (let k = 1; k < holes.length; k++) {
        const j = this.jumpIfLegal(pegs, holes[k - 1], holes[k]);
        if (!j) return null;
        pegs[j[0]] = pegs[j[1]] = 0;
        pegs[j[2]] = 1;
        played.push(j);
      }
    }
    return played;
  }

  /** The position text (pyapp.core.position.format_position). */
  text(pegs) {
    const rows = Array.from({ length: this.d.rows }, () => []);
    this.d.text.forEach(([r, col], i) => { rows[r][col] = pegs[i] ? "o" : "."; });
    return rows.map((row) => Array.from(row, (ch) => ch ?? " ").join("").trimEnd()).join("\n");
  }

  /** (over, won, message) as pyapp.core.game.ending (its wording; test_rules.py compares every end). */
  ending(pegs, legalCount, goal) {
    if (legalCount) return [false, false, ""];
    const count = pegs.reduce((a, b) => a + b, 0);
    const where = count === 1 ? this.d.names[pegs.indexOf(1)] : "";
    // boards.json's goals: one peg anywhere (no hole), one peg on a hole, or as few as possible (no final_pegs)
    const reached = count === 1 && goal.final_pegs === 1 && (goal.hole === null || where === goal.hole);
    if (reached) return [true, true, `Solved! One peg left, on ${where}.`];
    if (!goal.definite) return [true, count === 1, `Game over: ${count} peg${count !== 1 ? "s" : ""} left.`];
    if (where) return [true, false, `Game over: one peg left on ${where}, but the goal was ${goal.text}.`];
    return [true, false, `Game over: ${count} pegs left, no jump possible.`];
  }

  /** The state for a start, goal and jumps played (index triples), as pyapp.web.api.state. */
  state(startPegs, goal, jumps) {
    const names = this.d.names;
    const pegs = startPegs.slice();
    for (const [a, b, c] of jumps) {
      pegs[a] = pegs[b] = 0;
      pegs[c] = 1;
    }
    const legal = this.legalIndices(pegs);
    const [over, won, message] = this.ending(pegs, legal.length, goal);
    const vacant = [];
    startPegs.forEach((p, i) => { if (!p) vacant.push(names[i]); });
    const asNames = (j) => j.map((i) => names[i]);
    const played = jumps.map(asNames);
    const moves = groupMoves(played);
    return {
      board: { ...this.info },
      svg: this.d.svg,
      cells: this.cells,
      start_text: this.text(startPegs),
      start_hole: vacant.length === 1 ? vacant[0] : null,
      position: this.text(pegs),
      pegs: names.filter((_, i) => pegs[i]),
      legal: legal.map(asNames),
      played,
      moves,
      peg_count: pegs.reduce((a, b) => a + b, 0),
      jump_count: jumps.length,
      move_count: moves.length,
      goal,
      over,
      won,
      message,
      refused: null,
      local: true,
    };
  }
}

/** The catalogue's rules: `rules(id)`, and `state(args)` for request arguments (or null). */
export class Catalogue {
  constructor(data) {
    if (!data || data.format !== FORMAT) throw new Error(`boards.json has format ${data?.format}, expected ${FORMAT}`);
    this.boards = data.boards.map((d) => new BoardRules(d));
    this.byId = new Map(this.boards.map((b) => [b.d.id, b]));
  }

  static async load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return new Catalogue(await response.json());
  }

  /** pyapp.web.api.state(args) computed here, or null when the engine must answer. */
  state(args) {
    const rules = typeof args.board === "string" ? this.byId.get(args.board || "english") : args.board == null ? this.byId.get("english") : null;
    if (!rules || args.position || (args.start != null && typeof args.start !== "string")) return null;
    if (args.coordinates === false) return null; // boards.json holds the drawing with coordinates
    const goal = args.goal == null || args.goal === "" ? rules.goal(null) : typeof args.goal === "string" ? rules.goal(args.goal) : null;
    const pegs = rules.start(args.start || null);
    if (!goal || !pegs) return null;
    let moves = args.moves ?? [];
    if (typeof moves === "string") moves = moves.replace(/,/g, " ").split(/\s+/).filter(Boolean);
    if (!Array.isArray(moves) || moves.length > MAX_MOVES || moves.join(",").length > MAX_MOVES_CHARS) return null;
    const start = pegs.slice();
    const jumps = rules.replay(pegs, moves);
    return jumps ? rules.state(start, goal, jumps) : null;
  }
}
