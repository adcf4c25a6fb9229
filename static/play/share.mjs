// Share links: the URL fragment holds the game in readable form,
//   #board=english&start=d4&goal=d4&moves=f4-d4,d2-d4
// (board: catalogue id or custom spec like square:ooo/o.o/ooo; start: the single vacant hole, or
// pos: the position, rows joined by "/" without alignment spaces; goal: hole, any or min; moves: standard notation;
// puzzle + seed: a puzzle's peg count and seed, which the engine turns back into the same position).
// Parsing only checks the shape and the sizes (the engine's own limits, pyapp/core/limits.py, generated
// into limits.mjs); the engine validates every value and nothing read here is ever inserted as HTML.

import {
  MAX_GOAL_CHARS, MAX_HOLE_CHARS, MAX_LINK_CHARS, MAX_MOVES, MAX_MOVES_CHARS, MAX_ROWS, MAX_SPEC_CHARS, MAX_TEXT_CHARS,
} from "./limits.mjs";

const KEYS = new Set(["board", "start", "pos", "goal", "moves", "puzzle", "seed"]);
export const MAX_FRAGMENT = MAX_LINK_CHARS;
const FIELD_CHARS = { board: MAX_SPEC_CHARS, start: MAX_HOLE_CHARS, pos: MAX_TEXT_CHARS, goal: MAX_GOAL_CHARS,
  moves: MAX_MOVES_CHARS, puzzle: 6, seed: 6 };

const readable = (value) =>
  encodeURIComponent(value).replace(/%2F/gi, "/").replace(/%2C/gi, ",").replace(/%3A/gi, ":");

/** The fragment (without '#') for a game: {board, start?, position?, puzzle?: {pegs, seed}, goal?, moves[]}. */
export function formatFragment({ board, start, position, puzzle, goal, moves }) {
  const parts = [`board=${readable(board)}`];
  if (puzzle) parts.push(`puzzle=${puzzle.pegs}`, `seed=${puzzle.seed}`);
  else if (position) parts.push(`pos=${readable(position.replace(/\n/g, "/").replace(/ /g, ""))}`);
  else if (start) parts.push(`start=${readable(start)}`);
  if (goal) parts.push(`goal=${readable(goal)}`);
  if (moves && moves.length) parts.push(`moves=${moves.map(readable).join(",")}`);
  return parts.join("&");
}

/** Read a fragment: {ok: true, game: null} (none), {ok: true, game}, or {ok: false, error}. */
export function parseFragment(hash) {
  const text = String(hash || "").replace(/^#/, "");
  if (!text.trim()) return { ok: true, game: null };
  if (text.length > MAX_FRAGMENT) {
    return { ok: false, error: `the link is too long (${text.length} characters, at most ${MAX_FRAGMENT})` };
  }
  const seen = {};
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    if (eq < 1) return { ok: false, error: `the link has a part without a name=value form: "${part.slice(0, 40)}"` };
    const key = part.slice(0, eq);
    let value;
    try {
      value = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, " "));
    } catch {
      return { ok: false, error: `the link's "${key.slice(0, 20)}" value is not valid URL encoding` };
    }
    if (!KEYS.has(key)) {
      return { ok: false, error: `the link has an unknown field "${key.slice(0, 20)}" (expected board, start, pos, goal, moves, puzzle, seed)` };
    }
    if (key in seen) return { ok: false, error: `the link names "${key}" twice` };
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) return { ok: false, error: `the link's "${key}" holds control characters` };
    if (value.length > FIELD_CHARS[key]) {
      return { ok: false, error: `the link's "${key}" is too long (${value.length} characters, at most ${FIELD_CHARS[key]})` };
    }
    seen[key] = value;
  }
  if (!seen.board) return { ok: false, error: "the link does not name a board (board=...)" };
  if (seen.start && seen.pos) return { ok: false, error: "the link gives both a start hole and a position" };
  if ((seen.puzzle || seen.seed) && (seen.start || seen.pos)) {
    return { ok: false, error: "the link gives a puzzle and also a start or a position" };
  }
  for (const key of ["puzzle", "seed"]) {
    if (key in seen && !/^\d{1,6}$/.test(seen[key])) return { ok: false, error: `the link's ${key} "${seen[key].slice(0, 20)}" is not a whole number` };
  }
  if (("puzzle" in seen) !== ("seed" in seen)) return { ok: false, error: "a puzzle link needs both puzzle=PEGS and seed=N" };
  for (const key of ["board", "pos"]) {
    const rows = (seen[key] || "").split("/").filter((row) => row.trim()).length;
    if (rows > MAX_ROWS) return { ok: false, error: `the link's "${key}" has ${rows} rows, at most ${MAX_ROWS} are supported` };
  }
  const moveCount = (seen.moves || "").split(/[\s,]+/).filter(Boolean).length;
  if (moveCount > MAX_MOVES) return { ok: false, error: `the link has ${moveCount} moves, at most ${MAX_MOVES}` };
  const game = {
    board: seen.board,
    start: seen.start || null,
    position: seen.pos || null,
    goal: seen.goal || null,
    moves: (seen.moves || "").split(/[\s,]+/).filter(Boolean),
    puzzle: seen.puzzle ? { pegs: Number(seen.puzzle), seed: Number(seen.seed) } : null,
  };
  return { ok: true, game };
}
