// The page's state: ONE object (`store.state`), changed only through named actions, plus one
// queue that applies the user's intentions (clicks, taps, keys, buttons) in order.
//
// How a feature adds state and actions (the move list, the finishes map, puzzles, tables, ...):
//   1. Give it a slice: `store.define("puzzle", { index: 0, solved: false }, {
//        next(s) { s.puzzle.index++; },                    // an action: (state, ...args) => void
//        solve(s, moves) { s.puzzle.solved = true; s.puzzle.moves = moves; },
//      });`
//      The actions become "puzzle/next" and "puzzle/solve". An action changes the state
//      synchronously (it may read any slice; it should write its own) and returns nothing useful;
//      async work (the engine, animations) happens outside actions, which are called with results.
//   2. Change state only with `store.do("puzzle/next")`; never assign to `store.state` elsewhere.
//   3. Render with `store.subscribe((state, action) => ...)`: subscribers run after every action,
//      read the whole state and update the DOM; they never call `store.do` (effects belong to
//      controllers, e.g. game.mjs, tasks.mjs). `action` names what changed, for views that want to skip work.
//   4. A user intention that must wait for earlier ones (a jump animating, the engine answering)
//      goes through `store.queue(async () => ...)`: queued work runs one item at a time, in order,
//      so quick clicks, taps and key presses are never dropped.
// Slices replace their object on change (`s.x = { ...s.x, k: v }`), so views compare by identity.
// The slices defined today: queue (here), engine, loading (startup.mjs), game, board, selection,
// status, editor (game.mjs), task, progress, analysis (tasks.mjs), solution (playback.mjs),
// finishes (finishmap.mjs), neverlose, puzzle, table (table.mjs).

export class Store {
  constructor() {
    /** @type {Record<string, any>} */
    this.state = {};
    this.actions = new Map(); // "slice/name" -> (state, ...args) => void
    this.listeners = new Set();
    this.notifying = false;
    this.tail = Promise.resolve();
    this.log = []; // the last action names (for tests and debugging)
    // how many queued intentions are not finished (views keep Undo & co. pressable meanwhile)
    this.define("queue", { pending: 0 }, { count(s, delta) { s.queue = { pending: s.queue.pending + delta }; } });
  }

  /** Add a slice `name` with its initial value and its actions (named "name/action"). */
  define(name, initial, actions = {}) {
    if (name in this.state) throw new Error(`store: slice "${name}" is defined twice`);
    this.state[name] = initial;
    for (const [key, fn] of Object.entries(actions)) this.actions.set(`${name}/${key}`, fn);
  }

  /** Run the named action, then every subscriber. */
  do(name, ...args) {
    const action = this.actions.get(name);
    if (!action) throw new Error(`store: no action "${name}"`);
    if (this.notifying) throw new Error(`store: "${name}" called while rendering (views must not change state)`);
    action(this.state, ...args);
    this.log.push(name);
    if (this.log.length > 50) this.log.shift();
    this.notifying = true;
    try {
      for (const fn of this.listeners) fn(this.state, name);
    } finally {
      this.notifying = false;
    }
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Run `work` after every earlier queued item has finished; resolves with its value.
   *  An item that fails is logged and does not stop the queue. */
  queue(work) {
    this.do("queue/count", 1);
    const run = this.tail.then(work);
    this.tail = run.catch((err) => console.error(err)).finally(() => this.do("queue/count", -1));
    return run;
  }

  /** Resolves when everything queued so far is done. */
  idle() { return this.tail; }
}
