"""The back ends of :mod:`.lp`: HiGHS through ``highspy`` (CPython) or through the ``highs`` WebAssembly
module (Pyodide), and the stand-in that answers ``unavailable`` when neither can be had.

Both real back ends pass the model as one sparse row-wise matrix and read HiGHS's model status (the
same numeric codes in both), the primal point, the simplex iterations, the branch-and-bound nodes and
the MIP gap, so the two runtimes give the same :class:`~.lp.Solution` for the same model.

In Pyodide the page's workers register a JavaScript module ``peg_lp`` (``static/engine/lp.mjs``) with
``state()`` (``absent``, ``loading``, ``ready`` or ``failed: why``), ``load()`` (starts fetching and
compiling the WebAssembly, once) and ``solve(json)`` (the model as :meth:`~.lp.Model.as_json`, the answer
as JSON text).  Python cannot wait for a promise, so :func:`.lp.solve_steps` asks ``load()`` and pauses
until ``state()`` is ``ready``; the worker's event loop runs between two steps of a job.
"""

from __future__ import annotations

import json
import math
import sys
import time

from .lp_model import Backend, Model, Solution, Status

HIGHS_VERSION = "1.15.1"
"""The HiGHS both back ends are pinned to (``highspy==1.15.1``; the npm ``highs`` 1.15.3 embeds it)."""

_STATUS: dict[int, Status] = {7: "optimal", 8: "infeasible", 10: "unbounded", 13: "time limit", 16: "node limit",
                              17: "time limit"}
"""HiGHS's ``HighsModelStatus`` codes (the same in highspy and highs-js) mapped to ours (16, its solution limit, is
what a programme stopped by the ``mip_max_nodes`` option reports; 17, interrupted, what one stopped at its
``cpu_limit`` reports); the rest are
``other``, except 9 (unbounded or infeasible, said by presolve), read as infeasible when every column
is bounded."""


def status_of(code: int, model: Model) -> Status:
    """Our status for HiGHS's model status ``code`` (see :data:`_STATUS`)."""
    if code == 9 and all(not math.isinf(lo) and not math.isinf(hi) for lo, hi in zip(model.lower, model.upper)):
        return "infeasible"
    return _STATUS.get(code, "other")


class Unavailable(Backend):
    """No back end in this runtime: every programme answers ``unavailable``, saying why."""

    def __init__(self, why: str) -> None:
        self.name = "no linear programming back end"
        self.why = why

    def state(self) -> str:
        return f"failed: {self.why}"


class Highspy(Backend):
    """HiGHS through ``highspy`` (CPython)."""

    def __init__(self) -> None:
        import highspy

        self._highspy = highspy
        self.name = f"HiGHS {highspy.Highs().version()} (highspy)"

    def options(self, h) -> None:
        """Set further HiGHS options on ``h`` before a model is passed (none here; a subclass may log or
        fix the threads, as ``scripts/ilp_run.py`` does)."""

    def run(self, model: Model) -> Solution:
        import numpy as np

        hs = self._highspy
        h = hs.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("time_limit", float(model.time_limit))
        for name, value in model.options.items():
            if h.setOptionValue(name, value) == hs.HighsStatus.kError:
                return Solution("error", backend=self.name, message=f"{self.name} refused the option {name}={value!r}")
        self.options(h)
        if model.cpu_limit is not None:
            _stop_at_cpu_seconds(hs, h, time.process_time() + model.cpu_limit)
        # one integrality entry per column, always (an empty array is read as garbage by highspy 1.15.1)
        integrality = np.array([1 if i else 0 for i in model.integer], dtype=np.int32)
        t0 = time.perf_counter()
        passed = h.passModel(model.columns, model.rows, len(model.index), 2, -1 if model.sense == "max" else 1, 0.0,
                    np.array(model.cost, dtype=np.float64), np.array(model.lower, dtype=np.float64),
                    np.array(model.upper, dtype=np.float64), np.array(model.row_lower, dtype=np.float64),
                    np.array(model.row_upper, dtype=np.float64), np.array(model.starts[:-1], dtype=np.int32),
                    np.array(model.index, dtype=np.int32), np.array(model.value, dtype=np.float64), integrality)
        if passed == hs.HighsStatus.kError:
            return Solution("error", backend=self.name, message=f"{self.name} refused the model")
        h.run()
        seconds = time.perf_counter() - t0
        status = status_of(int(h.getModelStatus().value), model)
        info = h.getInfo()
        x = None
        if info.primal_solution_status == 2:  # a feasible point
            x = tuple(h.getSolution().col_value)
        gap = float(info.mip_gap) if model.is_mip else None
        return Solution(status, x, info.objective_function_value if x is not None else None,
                        int(info.simplex_iteration_count), max(0, int(info.mip_node_count)), seconds,
                        gap, self.name, "" if status != "other" else h.modelStatusToString(h.getModelStatus()))


def _stop_at_cpu_seconds(hs, h, deadline: float) -> None:
    """Interrupt HiGHS (``h``) once this process's CPU clock passes ``deadline`` (checked at HiGHS's simplex and
    branch-and-bound interrupt points)."""

    def check(kind, message, data_out, data_in, user) -> None:
        if time.process_time() >= deadline:
            data_in.user_interrupt = True

    h.setCallback(check, None)
    h.startCallback(hs.cb.HighsCallbackType.kCallbackMipInterrupt)
    h.startCallback(hs.cb.HighsCallbackType.kCallbackSimplexInterrupt)


class Wasm(Backend):
    """HiGHS compiled to WebAssembly (the npm ``highs``), called through the worker's ``peg_lp`` module."""

    name = f"HiGHS {HIGHS_VERSION} (WebAssembly)"

    def __init__(self) -> None:
        self._js = None

    def _module(self):
        if self._js is None:
            import peg_lp  # type: ignore[import-not-found]  # registered by static/engine/lp.mjs

            self._js = peg_lp
        return self._js

    def state(self) -> str:
        try:
            js = self._module()
        except ImportError:
            return "failed: this page's worker provides no highs module"
        state = str(js.state())
        if state == "absent":
            js.load()
            return "loading"
        return state

    def run(self, model: Model) -> Solution:
        out = json.loads(str(self._module().solve(json.dumps(model.as_json()))))
        if "error" in out:
            return Solution("error", backend=self.name, message=f"{self.name} failed: {out['error']}")
        status = status_of(int(out["status"]), model)
        x = tuple(out["x"]) if out.get("x") is not None else None
        return Solution(status, x, out.get("objective") if x is not None else None, int(out.get("iterations", 0)),
                        max(0, int(out.get("nodes", 0))), float(out.get("seconds", 0.0)),
                        out.get("gap") if model.is_mip else None, self.name,
                        "" if status != "other" else f"HiGHS model status {out['status']}")


def choose() -> Backend:
    """The back end of this runtime: WebAssembly in Pyodide, else ``highspy``; :class:`Unavailable`
    (saying why) when it cannot be had."""
    if sys.platform == "emscripten":
        return Wasm()
    try:
        return Highspy()
    except ImportError:
        return Unavailable("highspy is not installed: pip install highspy==" + HIGHS_VERSION)
    except Exception as err:  # a broken install: the proofs that need no programme still run
        return Unavailable(f"highspy failed to load: {type(err).__name__}: {err}")
