"""The command line, ``python -m cfrlib``: once as a subprocess, as a reader would run it, and
otherwise through ``cfrlib.cli.main`` in this process, with its output and exit status (a
subprocess pays a second of imports each time)."""

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import cfrlib
from cfrlib import games
from cfrlib.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
SEED_KEYS = ["expected_one_utility", "player_one_regret", "player_two_regret", "regret",
             "player_one_strategy", "player_two_strategy"]


def cfrlib_subprocess(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cfrlib", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def cfrlib_cli(*args, cwd):
    """``cfrlib ARGS`` run by ``main`` in this process from the folder ``cwd``: its
    ``returncode``, ``stdout`` and ``stderr``, as :func:`subprocess.run` gives them."""
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as stop:         # argparse's usage errors and --version
                code = stop.code
    finally:
        os.chdir(here)
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


@pytest.mark.slow  # two processes: make test only
def test_solve_kuhn_prints_the_seeds_keys(tmp_path):
    done = cfrlib_subprocess("solve", "kuhn", "--algorithm", "cfr+", "--iterations", 1000,
                             cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    result = json.loads(done.stdout)
    assert list(result)[:6] == SEED_KEYS
    assert result["expected_one_utility"] == pytest.approx(-1 / 18, abs=1e-3)
    assert result["regret"] == max(result["player_one_regret"], result["player_two_regret"]) < 2e-3
    assert result["exploitability"] == pytest.approx(
        (result["player_one_regret"] + result["player_two_regret"]) / 2, abs=1e-12)
    assert (result["game"], result["algorithm"], result["iterations"]) == ("kuhn", "cfr+", 1000)
    assert sorted(result["player_one_strategy"]) == ["J", "Jpb", "K", "Kpb", "Q", "Qpb"]
    assert sorted(result["player_two_strategy"]) == ["Jb", "Jp", "Kb", "Kp", "Qb", "Qp"]
    for dist in [*result["player_one_strategy"].values(), *result["player_two_strategy"].values()]:
        assert list(dist) == ["pass", "bet"] and sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    # Player 1's equilibrium strategy is unique: with a K always call, with a J never call.
    assert result["player_two_strategy"]["Kb"]["bet"] == pytest.approx(1.0, abs=1e-2)
    assert result["player_two_strategy"]["Jb"]["bet"] == pytest.approx(0.0, abs=1e-2)


def test_solve_the_seeds_minimal_example_to_value_zero(tmp_path):
    done = cfrlib_cli("solve", DATA / "minimal.json", "-n", 10, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["expected_one_utility"] == 0.0 and result["regret"] == 0.0
    assert result["player_one_strategy"] == {"none": {"only": 1.0}}
    assert result["player_two_strategy"] == {}


def test_solve_coin_toss_finds_the_unique_guess(tmp_path):
    # Brown and Sandholm (2017): in every equilibrium of Coin Toss player 1 guesses heads with 1/4.
    done = cfrlib_cli("solve", "coin_toss", "-a", "cfr+", "-n", 2000, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["player_two_strategy"]["play"]["heads"] == pytest.approx(0.25, abs=1e-3)
    assert result["expected_one_utility"] == pytest.approx(0.0, abs=1e-6)


def test_solve_writes_to_output_and_sampling_is_seeded(tmp_path):
    runs = []
    for name in ("a.json", "b.json"):
        done = cfrlib_cli("solve", "kuhn", "-a", "es", "-n", 300, "--seed", 7, "--output", name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        runs.append(json.loads((tmp_path / name).read_text()))
    assert runs[0] == runs[1] and runs[0]["seed"] == 7
    other = cfrlib_cli("solve", "kuhn", "-a", "es", "-n", 300, "--seed", 8, cwd=tmp_path)
    assert json.loads(other.stdout)["player_one_strategy"] != runs[0]["player_one_strategy"]


def test_solve_stops_at_the_target_exploitability(tmp_path):
    done = cfrlib_cli("solve", "kuhn", "-a", "cfr+", "--target-exploitability", 0.01,
                      "--eval-every", 5, cwd=tmp_path)
    result = json.loads(done.stdout)
    assert result["exploitability"] <= 0.01
    assert result["iterations"] % 5 == 0 and result["iterations"] < 1000


def test_progress_bar_on_request(tmp_path):
    done = cfrlib_cli("solve", "kuhn", "-n", 50, "--progress", cwd=tmp_path)
    assert done.returncode == 0 and "/50 [" in done.stderr  # tqdm: "CFR+: 0%| | 0/50 [..."


def test_info(tmp_path):
    done = cfrlib_cli("info", "kuhn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "game: kuhn", "nodes: 58", "terminals: 30", "chance nodes: 4", "depth: 5",
        "infosets: 12 (player 0: 6, player 1: 6)", "constant-sum: yes, u0 + u1 = 0"]
    unfair = tmp_path / "unfair.efg"
    unfair.write_text('EFG 2 R "unfair" { "a" "b" }\np "" 1 1 "i" { "x" "y" } 0\nt "" 1 { 0 0 }\nt "" 2 { 1 1 }\n')
    done = cfrlib_cli("info", unfair, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "infosets: 1 (player 0: 1, player 1: 0)" in done.stdout
    assert "constant-sum: no (not a constant-sum game: the payoffs sum to 0 at unfair.efg line 3" in done.stdout


def test_convert_to_efg_and_json_and_solve_the_result(tmp_path):
    done = cfrlib_cli("convert", "kuhn", "--to", "efg", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith('EFG 2 R "kuhn"')
    (tmp_path / "kuhn.efg").write_text(done.stdout)
    done = cfrlib_cli("convert", "kuhn.efg", "--output", "kuhn.json", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    loaded = games.load(tmp_path / "kuhn.json")
    assert loaded.tree().num_infosets == 12
    assert cfrlib.expected_value(loaded, games.kuhn().equilibrium(0.2).probs) == pytest.approx(-1 / 18, abs=1e-15)
    solved = json.loads(cfrlib_cli("solve", "kuhn.json", "-n", 1000, cwd=tmp_path).stdout)
    assert solved["expected_one_utility"] == pytest.approx(-1 / 18, abs=1e-3)
    assert solved["game"] == "kuhn"


@pytest.mark.parametrize("args, message", [
    (["solve", "broken.efg"], "cfrlib solve: error: broken.efg line 2, column 1: player 0 has no actions"),
    (["info", "broken.json"], "cfrlib info: error: broken.json: not valid JSON at line 1, column 15"),
    (["solve", "missing.json"], "cfrlib solve: error: no file 'missing.json' (the built-in games are kuhn, "),
    (["convert", "kuhn"], "cfrlib convert: error: say which format to write with --to json or --to efg"),
    (["solve", "kuhn", "-n", "-3"], "cfrlib solve: error: iterations must be a non-negative integer, got -3"),
    (["solve", "broken.json", "--input-format", "efg"], "cfrlib solve: error: broken.json line 1, column 1: expected 'EFG'"),
])
def test_bad_input_exits_with_code_2_and_one_line(tmp_path, args, message):
    (tmp_path / "broken.efg").write_text('EFG 2 R "x" { "a" "b" }\np "" 1 1 "i" { } 0\n')
    (tmp_path / "broken.json").write_text('{"terminal": 1')
    done = cfrlib_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_usage_errors_exit_with_code_2(tmp_path):
    done = cfrlib_cli("solve", "kuhn", "--algorithm", "magic", cwd=tmp_path)
    assert done.returncode == 2 and "invalid choice: 'magic'" in done.stderr


def test_main_in_process(capsys, tmp_path):
    assert main(["convert", "rps", "--to", "json", "--output", str(tmp_path / "rps.json")]) == 0
    assert main(["info", str(tmp_path / "rps.json")]) == 0
    out = capsys.readouterr().out
    assert "infosets: 2 (player 0: 1, player 1: 1)" in out and "nodes: 13" in out
    assert main(["solve", "rps", "-a", "cfr", "-n", "200"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["player_one_strategy"]["P0"] == pytest.approx(
        {"rock": 1 / 3, "paper": 1 / 3, "scissors": 1 / 3}, abs=1e-12)


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"cfrlib {cfrlib.__version__}"


def test_info_names_the_options_of_a_built_in_game(capsys):
    assert main(["info", "bluff"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "game: bluff11 = bluff(dice=(1, 1), sides=6)"
