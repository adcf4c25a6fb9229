"""The package as a user installs it: the wheel built from this checkout, installed with its ``cluster``
extra into a fresh virtual environment outside the checkout, run through its console script, and a Dask
cluster started as separate ``dask scheduler`` / ``dask worker`` processes from that environment (not a
``LocalCluster``: a scheduler that cannot import ``pyapp`` rejects every task, which only separate
processes show).

Needs the ``build`` package (requirements-dev.txt) and a package index or pip cache for the extra's
dependencies; it runs from a temporary folder, so the checkout's own ``pyapp`` is never imported.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from reference_counts import in_process_count

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _environ() -> dict[str, str]:
    """The environment of the installed package's processes: not the checkout's (``PYTHONPATH``, ``VIRTUAL_ENV``)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _run(cmd: list[str], cwd: Path, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=_environ(), capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # the build package's own command: ``python -m build`` from the checkout would find build.py (the site's
    # builder) first on sys.path
    tool = Path(sys.executable).with_name("pyproject-build")
    _run([str(tool), "--wheel", "--outdir", str(out), str(ROOT)], cwd=out)
    (found,) = out.glob("peg_solitaire_lab-*.whl")
    return found


@pytest.fixture(scope="module")
def env(wheel, tmp_path_factory) -> Iterator[Path]:
    """A fresh virtual environment with the wheel and its ``cluster`` extra; yields its ``bin`` folder.

    The environment gets no pip of its own (ensurepip costs 5 s of CPU): the test process's pip installs into it
    (``pip --python``)."""
    home = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(home / "env")
    bin_dir = home / "env" / "bin"
    _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "--quiet",
          "--disable-pip-version-check", "--no-compile", f"{wheel}[cluster]"], cwd=home, timeout=600)
    yield bin_dir


def test_the_wheel_holds_only_the_library(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"pyapp", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    assert "pyapp/cli/commands/solve.py" in names and "pyapp/exact/count/sweep.py" in names
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "pegsol = pyapp.cli.main:console" in meta


def test_the_console_script_solves_counts_and_refuses_bad_input(env, tmp_path):
    import pyapp

    where = _run([str(env / "python"), "-c", "import pyapp; print(pyapp.__file__)"], cwd=tmp_path).stdout
    assert str(env.parent) in where and str(ROOT) not in where  # the installed copy, not the checkout
    assert _run([str(env / "pegsol"), "--version"], cwd=tmp_path).stdout.strip() == \
        f"Peg Solitaire Lab {pyapp.__version__}"
    solved = json.loads(_run([str(env / "pegsol"), "solve", "english", "--json"], cwd=tmp_path).stdout)
    assert solved["status"] == "solved" and solved["jumps"] == 31
    counted = json.loads(_run([str(env / "pegsol"), "count", "triangle5", "--start", "1", "--goal", "any",
                               "--workers", "1", "--json"], cwd=tmp_path).stdout)
    assert counted["solutions"] == 29760  # the published count of the 15-hole triangle from a corner (Bell)
    bad = _run([str(env / "pegsol"), "solve", "english", "--start", "z9"], cwd=tmp_path, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "z9" in bad.stderr
    assert "Traceback" not in bad.stderr
    api = _run([str(env / "python"), "-c", "import pyapp; print(pyapp.solve(pyapp.problem('triangle5', start='1', "
                "goal='any')).status)"], cwd=tmp_path).stdout
    assert api.strip() == "solved"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dask_processes_from_the_installed_package_give_the_in_process_count(env, tmp_path):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env_vars = _environ()
    # compiled once here, not by the scheduler, both workers and the command at once as they start and run steps
    _run([str(env / "python"), "-c", "import distributed.cli.dask_scheduler, distributed.cli.dask_worker, "
          "pyapp.cli.main, pyapp.exact.count, pyapp.exact.dask_pool, pyapp.exact.shardstep"], cwd=tmp_path)
    logs = [open(tmp_path / f"{name}.log", "w") for name in ("scheduler", "worker1", "worker2")]  # noqa: SIM115
    procs = [subprocess.Popen([str(env / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], cwd=tmp_path, env=env_vars, stdout=logs[0], stderr=logs[0])]
    try:
        # no nanny: each worker is one process (a nanny spawns the worker as a second one, which took 4 s more to
        # join and 8 s to shut down); the tasks still run in processes of the installed package
        for log in logs[1:]:
            procs.append(subprocess.Popen([str(env / "dask"), "worker", address, "--nthreads", "1",
                                           "--no-dashboard", "--no-nanny", "--host", "127.0.0.1",
                                           "--local-directory", str(tmp_path)],
                                          cwd=tmp_path, env=env_vars, stdout=log, stderr=log))
        _wait_for_workers(env, address, 2, tmp_path)
        on_cluster = json.loads(_run([str(env / "pegsol"), "count", "triangle6", "--json", "--cluster", address],
                                     cwd=tmp_path).stdout)
        alone = in_process_count("triangle6")
        assert on_cluster["status"] == alone.status == "counted"
        assert (on_cluster["solutions"], on_cluster["positions"]) == (alone.solutions, alone.positions)
    finally:
        # the workers killed (each one process without a nanny: nothing is left behind), then the scheduler told to
        # stop: a worker sent SIGTERM while its scheduler shuts down can hang in its own shutdown (seen under load)
        for p in procs[1:]:
            p.kill()
        procs[0].terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        for log in logs:
            log.close()


def _wait_for_workers(env: Path, address: str, n: int, cwd: Path, seconds: float = 90) -> None:
    probe = ("import sys; from distributed import Client; c = Client(sys.argv[1], timeout=30); "
             "c.wait_for_workers(int(sys.argv[2]), timeout=60); print(len(c.scheduler_info()['workers']))")
    deadline = time.monotonic() + seconds
    while True:
        done = _run([str(env / "python"), "-c", probe, address, str(n)], cwd=cwd, check=False, timeout=120)
        if done.returncode == 0 and int(done.stdout.strip() or 0) >= n:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{n} Dask workers did not join {address}: {done.stderr[-1500:]}")
        time.sleep(1)


def test_every_name_pyapp_exports_resolves():
    import pyapp

    assert set(pyapp.__all__) == set(pyapp._EXPORTS) | {"__version__"}
    for name in pyapp.__all__:
        assert getattr(pyapp, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pyapp.nope  # noqa: B018
