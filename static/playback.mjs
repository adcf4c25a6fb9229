// Solution playback: step back and forward, play/pause with a speed, a scrubber.
// Each step animates on the board and then commits the game to base + solution[0:k],
// so the counters, the URL and undo always agree with what is shown.

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

export class Playback {
  constructor(els, { view, commit, announce }) {
    this.els = els;
    this.view = view;
    this.commit = commit; // async (jumps) => void
    this.announce = announce;
    this.base = [];
    this.solution = [];
    this.index = 0;
    this.playing = false;
    this.busy = false;
    els.start.addEventListener("click", () => this.seek(0));
    els.end.addEventListener("click", () => this.seek(this.solution.length));
    els.back.addEventListener("click", () => { this.pause(); this.step(-1); });
    els.forward.addEventListener("click", () => { this.pause(); this.step(1); });
    els.play.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    els.scrubber.addEventListener("input", () => {
      const k = Number(els.scrubber.value); // read before pause() redraws the scrubber
      this.pause();
      this.seek(k);
    });
  }

  get active() { return !this.els.panel.hidden; }
  get speed() { return Number(this.els.speed.value) || 1; }

  load(base, solution, movesText) {
    this.pause();
    this.base = base.map((j) => j.slice());
    this.solution = solution.map((j) => j.slice());
    this.index = 0;
    showMoves(this.els.text, movesText.split(" "));
    this.els.scrubber.max = String(solution.length);
    this.els.total.textContent = String(solution.length);
    this.els.panel.hidden = false;
    this._show();
  }

  hide() {
    this.pause();
    this.els.panel.hidden = true;
  }

  /** True when `jumps` is base + a prefix of the solution (the game is still on the solution's path). */
  follows(jumps) {
    const line = this.base.concat(this.solution);
    return jumps.length >= this.base.length && jumps.length <= line.length &&
      jumps.every((j, i) => j.join() === line[i].join());
  }

  /** Resynchronise after the player undid/redid along the solution's path. */
  track(jumps) {
    if (!this.active) return;
    if (!this.follows(jumps)) {
      this.hide();
      return;
    }
    this.index = jumps.length - this.base.length;
    this._show();
  }

  _show() {
    this.els.index.textContent = String(this.index);
    this.els.scrubber.value = String(this.index);
    this.els.play.textContent = this.playing ? "Pause" : "Play";
    this.els.back.disabled = this.els.start.disabled = this.index === 0;
    this.els.forward.disabled = this.els.end.disabled = this.index === this.solution.length;
  }

  _line(k) { return this.base.concat(this.solution.slice(0, k)); }

  async step(delta) {
    if (this.busy) return false;
    const k = this.index + delta;
    if (k < 0 || k > this.solution.length) return false;
    this.busy = true;
    try {
      const jump = delta > 0 ? this.solution[this.index] : this.solution[k];
      await this.view.animateJump(jump, { duration: 420 / this.speed, reverse: delta < 0 });
      this.index = k;
      this._show();
      await this.commit(this._line(k));
    } finally {
      this.busy = false;
    }
    return true;
  }

  async seek(k) {
    if (this.busy) return;
    this.busy = true;
    try {
      this.index = Math.max(0, Math.min(this.solution.length, k));
      this._show();
      await this.commit(this._line(this.index));
    } finally {
      this.busy = false;
    }
  }

  async play() {
    if (this.playing) return;
    if (this.index >= this.solution.length) await this.seek(0);
    this.playing = true;
    this._show();
    this.announce?.("Playing the solution");
    while (this.playing && this.index < this.solution.length) {
      if (!(await this.step(1))) break;
      await new Promise((resolve) => setTimeout(resolve, 200 / this.speed));
    }
    this.playing = false;
    this._show();
  }

  pause() {
    this.playing = false;
    this._show?.();
  }
}
