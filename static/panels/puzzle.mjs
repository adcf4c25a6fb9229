// Puzzles: "New puzzle" asks the engine (pyapp.analysis.puzzle, through the "puzzle" request) for a
// random position with the chosen number of pegs on the current board, built backwards from
// one peg, so it always has a solution.  The puzzle's peg count and seed go into the address
// (`puzzle=10&seed=4711`) instead of the position: a puzzle link opens the same puzzle, because
// the engine rebuilds it from the seed.  Store slice "puzzle": null or {board, pegs, seed,
// position, goal, solution}.

const SIZES = { easy: 6, medium: 10, hard: 16, expert: 24 };

export function definePuzzle(store) {
  store.define("puzzle", null, {
    set(s, puzzle) { s.puzzle = puzzle; },
  });
}

/** The puzzle behind the game shown, or null (a game loaded afterwards is not a puzzle). */
export function activePuzzle(state) {
  const p = state.puzzle;
  const st = state.board;
  if (!p || !st || state.game.position !== p.position || st.board.spec !== p.board) return null;
  return p;
}

/** The peg count for a difficulty on a board of `holes` holes (at most holes - 1, at least 2). */
export const pegsFor = (level, holes) => Math.max(2, Math.min(SIZES[level] ?? Number(level) ?? 10, holes - 1));

/** ctx = {store, engine, game}; ui = {level: <select>}. */
export function createPuzzles(ctx, ui) {
  const { store } = ctx;
  const s = store.state;
  const status = (text, kind = "") => store.do("status/set", text, kind);

  async function fetchPuzzle(board, pegs, seed = null) {
    const args = { board, pegs };
    if (seed !== null && seed !== undefined) args.seed = seed;
    const p = await ctx.call("puzzle", args);
    return { board: p.board, pegs: p.pegs, seed: p.seed, position: p.position, goal: p.goal, solution: p.solution };
  }

  function announce(p) {
    status(`Puzzle ${p.seed}: ${p.pegs} pegs; leave one peg on ${p.goal}. It has a solution (press Solve to see one).`);
  }

  /** "New puzzle": a fresh seed on the current board. */
  async function newPuzzle() {
    if (ctx.game.blocked() || !s.board) return;
    const board = s.board.board.spec;
    const pegs = pegsFor(ui.level.value, s.board.board.holes);
    try {
      const p = await fetchPuzzle(board, pegs);
      store.do("puzzle/set", p); // first: the address written for the new game holds the seed
      await ctx.game.loadGame({ board: p.board, position: p.position, goal: p.goal });
      announce(p);
    } catch (err) {
      status(`No puzzle: ${err.message}`, "error");
    }
  }

  /** A link's game with `puzzle: {pegs, seed}`: rebuilt by the engine (same seed, same puzzle). */
  async function fromLink(game) {
    const p = await fetchPuzzle(game.board, game.puzzle.pegs, game.puzzle.seed);
    store.do("puzzle/set", p);
    return { board: p.board, start: null, position: p.position, goal: game.goal || p.goal };
  }

  return { newPuzzle: () => store.queue(newPuzzle), fromLink, announce };
}
