"""benchmarks/suite_time.py reads pytest's durations report and sums it by file and by kind, and
charges each of the commands it runs side by side its own time."""

import sys

import pytest
from suite_time import durations, kind_of, marked_files, side_by_side, threads_of_a_core

REPORT = """\
============================= slowest durations ==============================
18.81s call     tests/book/test_build_guards.py::test_nbval_fails_fast_when_a_kernel_stops_answering
8.27s call     chapters/12_beyond_small_games.ipynb::Cell 8
6.34s setup    tests/book/test_build_guards.py::test_nbval_fails_on_error_and_on_changed_number
1.70s setup    chapters/06_chance_sampling.ipynb::Cell 0
0.50s call     tests/test_sampling.py::test_one_iteration_is_unbiased_on_kuhn[os]
0.48s call     tests/test_sampling.py::test_one_iteration_is_unbiased_on_kuhn[es]
0.01s teardown tests/test_notebooks_anywhere.py::test_a_chapter_runs_alone

(4323 durations < 0.005s hidden.  Use -vv to show these durations.)
1875 passed in 172.77s (0:02:52)
"""


def test_durations_are_summed_per_file_over_every_phase():
    found = durations(REPORT)
    assert found == pytest.approx({"tests/book/test_build_guards.py": 25.15,
                                   "chapters/12_beyond_small_games.ipynb": 8.27,
                                   "chapters/06_chance_sampling.ipynb": 1.70,
                                   "tests/test_sampling.py": 0.98,
                                   "tests/test_notebooks_anywhere.py": 0.01})


def test_durations_are_summed_per_test_with_its_parameters():
    found = durations(REPORT, per_test=True)
    assert found["tests/book/test_build_guards.py::test_nbval_fails_on_error_and_on_changed_number"] == 6.34
    assert found["chapters/12_beyond_small_games.ipynb::Cell 8"] == 8.27
    assert found["tests/test_sampling.py::test_one_iteration_is_unbiased_on_kuhn[os]"] == 0.50
    assert sum(found.values()) == pytest.approx(sum(durations(REPORT).values()))
    assert len(found) == 7


def test_marked_files_are_read_from_the_checkout_that_ran(tmp_path):
    """--commit runs another commit, whose test files may be marked otherwise than this one's."""
    (tmp_path / "tests" / "book").mkdir(parents=True)
    (tmp_path / "tests" / "book" / "test_old.py").write_text("pytestmark = pytest.mark.book\n")
    (tmp_path / "tests" / "test_plain.py").write_text("def test_it():\n    pass\n")
    assert marked_files("book", tmp_path) == {"tests/book/test_old.py"}
    assert marked_files("wheel", tmp_path) == set()


def test_files_are_grouped_by_what_their_time_is_spent_on():
    book, wheel = marked_files("book"), marked_files("wheel")
    assert "tests/book/test_build_guards.py" in book
    assert "tests/test_notebooks_anywhere.py" in wheel
    assert "tests/test_sampling.py" not in book | wheel
    kinds = {path: kind_of(path, book, wheel) for path in durations(REPORT)}
    assert kinds == {"tests/book/test_build_guards.py": "book builds",
                     "chapters/12_beyond_small_games.ipynb": "notebooks",
                     "chapters/06_chance_sampling.ipynb": "notebooks",
                     "tests/test_sampling.py": "unit tests",
                     "tests/test_notebooks_anywhere.py": "wheel"}


@pytest.mark.parametrize("siblings, threads", [("0\n", 1), ("0-1\n", 2), ("0,2\n", 2), ("0-1,4-5", 4)])
def test_the_threads_sharing_a_core_are_read_from_the_kernels_list(siblings, threads):
    assert threads_of_a_core(siblings) == threads


def test_side_by_side_runs_start_together_and_each_is_charged_its_own_cpu(tmp_path):
    """Two commands run at once: one spins for about 0.4 s of CPU, the other sleeps as long; each
    is charged its own CPU time (not the other's), and each one's output is its own."""
    spin = ("import time; end = time.process_time() + 0.4\n"
            "while time.process_time() < end: pass\nprint('spun')")
    runs = side_by_side({"spin": ([sys.executable, "-c", spin], tmp_path),
                         "sleep": ([sys.executable, "-c", "import time; time.sleep(0.4); print('slept')"],
                                   tmp_path)})
    (spin_wall, spin_cpu, spin_out), (sleep_wall, sleep_cpu, sleep_out) = runs["spin"], runs["sleep"]
    assert spin_out.strip() == "spun" and sleep_out.strip() == "slept"
    assert spin_cpu >= 0.4 and sleep_cpu < 0.3
    assert spin_wall >= 0.4 and sleep_wall >= 0.4


def test_a_failed_side_by_side_command_stops_the_comparison_naming_it(tmp_path):
    with pytest.raises(SystemExit, match=r"(?s)broken: .* 1 / 0 failed:\n.*ZeroDivisionError"):
        side_by_side({"fine": ([sys.executable, "-c", "pass"], tmp_path),
                      "broken": ([sys.executable, "-c", "1 / 0"], tmp_path)})


def test_a_failed_command_can_be_reported_and_timed(tmp_path, capsys):
    """The fresh-clone timing goes on past a failed command (an old commit's test that fails on
    this machine), saying so."""
    runs = side_by_side({"broken": ([sys.executable, "-c", "1 / 0"], tmp_path)},
                        stop_on_failure=False)
    wall, cpu, output = runs["broken"]
    assert wall > 0 and cpu >= 0 and "ZeroDivisionError" in output
    said = capsys.readouterr().err
    assert said.startswith("broken: ") and "1 / 0 failed (its times are reported)" in said
    assert "ZeroDivisionError" in said
