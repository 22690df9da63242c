"""``cfrlib solve`` on long runs: checkpoints written atomically, a run killed and resumed that
ends exactly where the uninterrupted run ends, the checks that refuse another run's checkpoint,
and the certificate (best responses, NashConv and the LP's game value)."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.solvers import SOLVERS
from test_cli import ROOT, cfrlib_cli


def saved_state(path):
    """What a checkpoint holds, the seconds spent aside: its metadata and every array."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {name: data[name] for name in data.files if name != "meta"}
    del meta["seconds"]
    return meta, arrays


def assert_same_run(a, b):
    (meta_a, arrays_a), (meta_b, arrays_b) = saved_state(a), saved_state(b)
    assert meta_a == meta_b  # solver, game, parameters, iterations, nodes touched, RNG state
    assert arrays_a.keys() == arrays_b.keys()
    for name in arrays_a:
        assert np.array_equal(arrays_a[name], arrays_b[name]), name


def test_a_ctrl_c_while_a_checkpoint_is_written_takes_effect_once_it_is_whole(tmp_path, monkeypatch):
    """A SIGINT in the middle of the save (numpy writing the zip file: it made ``solve`` stop with
    numpy's error, exit code 1) is held until the checkpoint is whole, then raised."""
    from cfrlib.cli import _Checkpoints

    solver = cfrlib.CFRPlus(games.kuhn()).iterate(3)
    save = solver.save

    def interrupted_save(path):
        signal.raise_signal(signal.SIGINT)
        save(path)

    monkeypatch.setattr(solver, "save", interrupted_save)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)   # a worker ignores it
    try:
        with pytest.raises(KeyboardInterrupt):
            _Checkpoints(tmp_path / "run.npz", 1, 0.0).save(solver)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert saved_state(tmp_path / "run.npz")[0]["iterations"] == 3
    assert [p.name for p in tmp_path.iterdir()] == ["run.npz"]   # no temporary file left


@pytest.mark.parametrize("algorithm, every, stop", [
    ("es", 2000, signal.SIGKILL),      # sampling: the generator's state must come back too
    ("cfr+", 20, signal.SIGKILL),
    ("cfr+", 20, signal.SIGINT),       # Ctrl-C: a last checkpoint, exit code 130
])
@pytest.mark.slow  # three processes each: make test only
def test_a_killed_run_resumes_bit_for_bit(tmp_path, algorithm, every, stop):
    """A run started for ever is stopped once its first checkpoint exists; resumed to ``N``
    iterations in all, it prints and saves exactly what a run of ``N`` iterations does."""
    options = ["-a", algorithm, "--seed", 5, "--eval-every", every, "--checkpoint-every", every,
               "--checkpoint-seconds", 0]
    run = subprocess.Popen(
        [sys.executable, "-m", "cfrlib", "solve", "leduc", "-n", str(10**9), "--checkpoint",
         "run.npz", *map(str, options)], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # Ctrl-C's default, whatever this process inherited: a test worker, or a shell's background
        # job, ignores SIGINT, and a child would inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not (tmp_path / "run.npz").exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    run.send_signal(stop)
    out, err = run.communicate(timeout=60)
    assert (tmp_path / "run.npz").exists(), err
    stopped_at = saved_state(tmp_path / "run.npz")[0]["iterations"]
    assert stopped_at > 0
    if stop == signal.SIGKILL:
        assert run.returncode == -signal.SIGKILL and stopped_at % every == 0, err
    else:
        assert run.returncode == 130 and out == "", (run.returncode, err)
        assert err == (f"cfrlib solve: interrupted after iteration {stopped_at}, saved to run.npz: "
                       "continue with --resume run.npz\n")

    total = stopped_at + every * 3 // 2
    resumed = cfrlib_cli("solve", "leduc", "-n", total, "--resume", "run.npz", "--checkpoint",
                         "run.npz", *options, cwd=tmp_path)
    whole = cfrlib_cli("solve", "leduc", "-n", total, "--checkpoint", "whole.npz", *options,
                       cwd=tmp_path)
    assert resumed.returncode == whole.returncode == 0, resumed.stderr + whole.stderr
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    assert json.loads(resumed.stdout)["iterations"] == total
    assert_same_run(tmp_path / "run.npz", tmp_path / "whole.npz")


@pytest.mark.parametrize("algorithm", list(SOLVERS))
def test_every_solver_resumes_exactly(tmp_path, algorithm):
    options = ["-a", algorithm, "--seed", 3, "--eval-every", 10, "--checkpoint-seconds", 0]
    first = cfrlib_cli("solve", "kuhn", "-n", 25, "--checkpoint", "run.npz", *options, cwd=tmp_path)
    resumed = cfrlib_cli("solve", "kuhn", "-n", 60, "--resume", "run.npz", "--checkpoint", "run.npz",
                         *options, cwd=tmp_path)
    whole = cfrlib_cli("solve", "kuhn", "-n", 60, "--checkpoint", "whole.npz", *options, cwd=tmp_path)
    assert first.returncode == resumed.returncode == whole.returncode == 0, resumed.stderr
    assert resumed.stdout == whole.stdout
    assert_same_run(tmp_path / "run.npz", tmp_path / "whole.npz")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.npz", "whole.npz"]  # no temporaries


def test_checkpoints_fall_on_multiples_of_checkpoint_every(tmp_path, monkeypatch):
    saved, save = [], cfrlib.Solver.save

    def recorded_save(solver, path):
        saved.append(solver.iterations)
        save(solver, path)

    monkeypatch.setattr(cfrlib.Solver, "save", recorded_save)
    for n, seconds, expected in [(100, 0, [40, 80, 100]), (80, 0, [40, 80]),
                                 (100, None, [100])]:  # all within 60 s of the start but the last
        saved.clear()
        done = cfrlib_cli("solve", "kuhn", "-n", n, "--eval-every", 30, "--checkpoint", "run.npz",
                          "--checkpoint-every", 40,
                          *([] if seconds is None else ["--checkpoint-seconds", seconds]), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert saved == expected


@pytest.mark.parametrize("args, message", [
    (["leduc", "--resume", "cfr+.npz"], "cfr+.npz: was saved for kuhn, not for leduc"),
    (["kuhn", "-a", "cfr", "--resume", "cfr+.npz"],
     "cfr+.npz: is a checkpoint of cfr+ (averaging='linear', alternating=True, count_pruned=False, "
     "regret_pruning=False), and this run is cfr (alternating=True, count_pruned=False, "
     "regret_pruning=False); resume with the algorithm and seed it was saved with"),
    (["kuhn", "-a", "es", "--seed", 1, "--resume", "es.npz"],
     "es.npz: is a checkpoint of es (seed=0, backend='tree'), and this run is es (seed=1, "
     "backend='tree')"),
    (["kuhn", "-n", 10, "--resume", "cfr+.npz"],
     "cfr+.npz: holds 20 iterations, more than the 10 of -n (which counts all iterations)"),
    (["kuhn", "--resume", "missing.npz"], "no checkpoint file 'missing.npz'"),
    (["kuhn", "--resume", "cut.npz"],
     "cut.npz: not a saved cfrlib solver (File is not a zip file)"),
    (["kuhn", "--checkpoint-every", 5], "--checkpoint-every needs --checkpoint"),
    (["kuhn", "--checkpoint", "no/run.npz"], "no folder 'no' for the checkpoint 'no/run.npz'"),
])
def test_a_checkpoint_of_another_run_exits_with_code_2_and_one_line(tmp_path, args, message):
    cfrlib.CFRPlus(games.kuhn()).iterate(20).save(tmp_path / "cfr+.npz")
    cfrlib.ExternalSamplingMCCFR(games.kuhn()).iterate(20).save(tmp_path / "es.npz")
    (tmp_path / "cut.npz").write_bytes((tmp_path / "cfr+.npz").read_bytes()[:300])
    done = cfrlib_cli("solve", *args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"cfrlib solve: error: {message}"), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_certificate_of_kuhn_gives_its_value(tmp_path):
    done = cfrlib_cli("solve", "kuhn", "-n", 2000, "--certificate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    cert = result["certificate"]
    assert cert["game_value"] == pytest.approx(-1 / 18, abs=1e-9)  # Kuhn (1950)
    kuhn = games.kuhn()
    printed = {(p, key): dist for p, name in enumerate(["player_one_strategy", "player_two_strategy"])
               for key, dist in result[name].items()}
    assert cert["exploitability"] == cfrlib.exploitability(kuhn, printed) == result["exploitability"]
    assert cert["nash_conv"] == 2 * cert["exploitability"]
    assert cert["player_one_best_response"] - result["expected_one_utility"] == pytest.approx(
        result["player_one_regret"], abs=1e-15)
    low, high = cert["value_bounds"]
    assert low <= cert["game_value"] <= high and high - low == pytest.approx(cert["nash_conv"], abs=1e-15)
    assert cert["value_error"] == abs(result["expected_one_utility"] - cert["game_value"]) <= cert["nash_conv"]
    assert cert["lp"]["status"] == "solved" and cert["lp"]["sequences"] == 26
    assert list(result)[:-1] == [*json.loads(cfrlib_cli("solve", "kuhn", "-n", 1, cwd=tmp_path).stdout)]


def test_the_certificate_skips_the_lp_of_a_game_too_large(tmp_path):
    done = cfrlib_cli("solve", "kuhn", "-n", 100, "--certificate", "--lp-max-sequences", 25, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    cert = json.loads(done.stdout)["certificate"]
    assert cert["game_value"] is None and cert["value_error"] is None
    assert cert["lp"] == {"sequences": 26, "max_sequences": 25,
                          "status": "skipped: more sequences than --lp-max-sequences"}
    assert cert["exploitability"] > 0 and cert["value_bounds"][0] < -1 / 18 < cert["value_bounds"][1]
