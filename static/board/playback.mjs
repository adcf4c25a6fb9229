// Solution playback: step back and forward, play/pause with a speed, a scrubber.
// State: the store's "solution" slice {shown, base, jumps, text, index, playing}.  Each step
// animates on the board and then commits the game to base + solution[0:k], so the counters,
// the URL and undo always agree with what is shown.  Steps go through the store's queue, so
// quick presses are all applied, in order.

/** Moves as text, each move kept on one line (a line may break between moves, never inside one). */
export function showMoves(el, moves) {
  el.replaceChildren();
  moves.forEach((move, i) => {
    const span = document.createElement("span");
    span.className = "mv";
    span.textContent = move;
    el.append(span, i + 1 < moves.length ? " " : "");
  });
}

export function definePlayback(store) {
  store.define("solution", { shown: false, base: [], jumps: [], text: "", index: 0, playing: false }, {
    load(s, base, jumps, text) {
      s.solution = { shown: true, base: base.map((j) => j.slice()), jumps: jumps.map((j) => j.slice()), text, index: 0, playing: false };
    },
    hide(s) { s.solution = { ...s.solution, shown: false, playing: false }; },
    at(s, index) { s.solution = { ...s.solution, index }; },
    playing(s, playing) { s.solution = { ...s.solution, playing }; },
  });
}

export class Playback {
  /** els: the panel's elements; view: the BoardView; commit: async (jumps) => void. */
  constructor(store, els, { view, commit, announce }) {
    this.store = store;
    this.els = els;
    this.view = view;
    this.commit = commit;
    this.announce = announce;
    const q = (fn) => () => store.queue(fn);
    els.start.addEventListener("click", q(() => this.seek(0)));
    els.end.addEventListener("click", q(() => this.seek(this.sol.jumps.length)));
    els.back.addEventListener("click", () => { this.pause(); store.queue(() => this.step(-1)); });
    els.forward.addEventListener("click", () => { this.pause(); store.queue(() => this.step(1)); });
    els.play.addEventListener("click", () => (this.sol.playing ? this.pause() : this.play()));
    els.scrubber.addEventListener("input", () => {
      const k = Number(els.scrubber.value); // read before pause() redraws the scrubber
      this.pause();
      store.queue(() => this.seek(k));
    });
    this.rendered = null;
    store.subscribe((state) => this.render(state.solution));
  }

  get sol() { return this.store.state.solution; }
  get active() { return this.sol.shown; }
  get speed() { return Number(this.els.speed.value) || 1; }

  load(base, solution, movesText) { this.store.do("solution/load", base, solution, movesText); }
  hide() { if (this.sol.shown) this.store.do("solution/hide"); }

  /** True when `jumps` is base + a prefix of the solution (the game is still on the solution's path). */
  follows(jumps) {
    const line = this.sol.base.concat(this.sol.jumps);
    return jumps.length >= this.sol.base.length && jumps.length <= line.length &&
      jumps.every((j, i) => j.join() === line[i].join());
  }

  /** Resynchronise after the player undid/redid along the solution's path. */
  track(jumps) {
    if (!this.active) return;
    if (!this.follows(jumps)) this.hide();
    else this.store.do("solution/at", jumps.length - this.sol.base.length);
  }

  render(sol) {
    if (sol === this.rendered) return;
    const { els } = this;
    if (!this.rendered || sol.text !== this.rendered.text) {
      showMoves(els.text, sol.text ? sol.text.split(" ") : []);
      els.scrubber.max = String(sol.jumps.length);
      els.total.textContent = String(sol.jumps.length);
    }
    this.rendered = sol;
    els.panel.hidden = !sol.shown;
    document.body.classList.toggle("playback-open", sol.shown); // phones dock the controls (style.css)
    els.index.textContent = String(sol.index);
    els.scrubber.value = String(sol.index);
    els.play.textContent = sol.playing ? "Pause" : "Play";
    els.back.disabled = els.start.disabled = sol.index === 0;
    els.forward.disabled = els.end.disabled = sol.index === sol.jumps.length;
  }

  _line(k) { return this.sol.base.concat(this.sol.jumps.slice(0, k)); }

  async step(delta) {
    const { index, jumps } = this.sol;
    const k = index + delta;
    if (!this.active || k < 0 || k > jumps.length) return false;
    const jump = delta > 0 ? jumps[index] : jumps[k];
    await this.view.animateJump(jump, { duration: 420 / this.speed, reverse: delta < 0 });
    this.store.do("solution/at", k);
    await this.commit(this._line(k));
    return true;
  }

  async seek(k) {
    if (!this.active) return;
    const index = Math.max(0, Math.min(this.sol.jumps.length, k));
    this.store.do("solution/at", index);
    await this.commit(this._line(index));
  }

  async play() {
    if (this.sol.playing) return;
    if (this.sol.index >= this.sol.jumps.length) await this.store.queue(() => this.seek(0));
    this.store.do("solution/playing", true);
    this.announce?.("Playing the solution");
    while (this.sol.playing && this.sol.index < this.sol.jumps.length) {
      if (!(await this.store.queue(() => (this.sol.playing ? this.step(1) : false)))) break;
      await new Promise((resolve) => setTimeout(resolve, 200 / this.speed));
    }
    if (this.sol.playing) this.store.do("solution/playing", false);
  }

  pause() {
    if (this.sol.playing) this.store.do("solution/playing", false);
  }
}
