"""postflop-solver (b-inary, Rust, AGPL) as an outside reference for cfrlib.holdem: build it from a
checkout, solve a spot with our own driver, record what it prints.

The checkout is given, never fetched: ``--checkout PATH`` or the environment variable
``POSTFLOP_SOLVER``, a work tree or a bare git directory (its ``HEAD`` is exported). The build
happens in a cache directory outside the repository (``--build-dir``, default
``~/.cache/cfrlib/postflop-solver``), offline, against the crate sources Debian packages put under
``/usr/share/cargo/registry`` (``apt-get install librust-regex-dev librust-once-cell-dev
librust-rayon-dev``): a copy of the checkout whose ``Cargo.toml`` drops the optional ``bincode``
and ``zstd`` crates (Debian lacks their versions; cargo resolves optional crates even when their
feature is off) and asks for any 1.x of ``once_cell``, ``rayon`` and ``regex``; rustc >= 1.89
denies the lint ``dangerous_implicit_autorefs`` in its source, so it is allowed in the build's
rustflags. The checkout itself is never modified.

The driver, ``benchmarks/postflop_solver_driver.rs``, is cfrlib's code over the library's public
API (``PostFlopGame``, ``ActionTree``, ``TreeConfig``, ``solve_step``, ``compute_exploitability``,
``finalize``, ``expected_values``, ``equity``, ``memory_usage``): it reads a spot, runs DCFR
(postflop-solver's: alpha 1.5, beta 0, gamma 3, the average restarted at powers of 4) for the
given iterations with the exploitability every ``eval_every``, and prints JSON: the log
``[iteration, wall seconds of solve_step, its CPU seconds (all threads), exploitability in
chips]``, memory (32-bit floats and 16-bit
compressed), the root's actions and strategy, and per player the hands (postflop-solver's
order), normalised weights, EVs (including the starting pot: EV0 + EV1 = pot at equilibrium) and
equities at the root. Exploitability is (BR0 + BR1 - pot) / 2, the convention of cfrlib.holdem.

    python benchmarks/postflop_solver.py --checkout /path/to/postflop-solver [--spot basic-turn]
        [--threads 1 2] [--iterations 1000] [--out-dir benchmarks/data]

writes ``benchmarks/data/postflop_solver_<spot>_<threads>t.json`` (the spot, the machine, the
commit and the driver's output), which the engine's parity test and the tables read without
cargo. ``--spot-file FILE.json`` runs a spot of your own (the keys of :data:`SPOTS`' entries).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "postflop_solver_driver.rs"
DEBIAN_REGISTRY = "/usr/share/cargo/registry"

_BASIC_SIZES = {"bet": "60%, e, a", "raise": "2.5x"}
_BASIC = {
    "oop_range": "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
    "ip_range": "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
    "starting_pot": 200,
    "effective_stack": 900,
    "bet_sizes": {street: {"oop": _BASIC_SIZES, "ip": _BASIC_SIZES}
                  for street in ("flop", "turn", "river")},
    "donk_sizes": {"turn": None, "river": "50%"},
    "add_allin_threshold": 1.5,
    "force_allin_threshold": 0.15,
    "merging_threshold": 0.1,
    "eval_every": 10,
    "target": 0.0,
}
SPOTS: dict[str, dict[str, Any]] = {
    # postflop-solver's examples/basic.rs: the turn spot, and the same with the 2s on the river
    # (a blank: it pairs nothing and completes no straight or flush of Td9d6h Qc).
    "basic-turn": {**_BASIC, "board": "Td9d6hQc", "iterations": 1000},
    "basic-river": {**_BASIC, "board": "Td9d6hQc2s", "iterations": 1000},
    # the same ranges and sizes on the flop alone (not run unless asked: minutes and more memory)
    "basic-flop": {**_BASIC, "board": "Td9d6h", "iterations": 300},
}
DEFAULT_SPOTS = ["basic-turn", "basic-river"]


def _driver_input(spot: dict[str, Any], compression: bool) -> str:
    """The spot as the driver's ``key=value`` lines."""
    lines = {key: spot[key] for key in (
        "oop_range", "ip_range", "board", "starting_pot", "effective_stack", "add_allin_threshold",
        "force_allin_threshold", "merging_threshold", "iterations", "eval_every", "target")}
    for street, players in spot["bet_sizes"].items():
        for player, sizes in players.items():
            lines[f"{street}_{player}_bet"] = sizes["bet"]
            lines[f"{street}_{player}_raise"] = sizes["raise"]
    for street, sizes in spot["donk_sizes"].items():
        lines[f"{street}_donk"] = sizes or ""
    lines["compression"] = int(compression)
    lines["clock_ticks_per_second"] = os.sysconf("SC_CLK_TCK")
    return "".join(f"{key}={value}\n" for key, value in lines.items())


def _export(checkout: Path, destination: Path) -> str:
    """Copy the checkout's files to ``destination``; return its commit (or "unknown")."""
    bare = (checkout / "HEAD").exists() and (checkout / "objects").is_dir()
    git = ["git", f"--git-dir={checkout}"] if bare else ["git", "-C", str(checkout)]
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True)
    if bare:
        archive = subprocess.run([*git, "archive", "HEAD"], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(destination, filter="data")
    else:
        shutil.copytree(checkout, destination, ignore=shutil.ignore_patterns(".git", "target"))
    return commit.stdout.strip() if commit.returncode == 0 else "unknown"


def _patch_manifest(manifest: Path) -> None:
    """In the build copy: no bincode or zstd, any 1.x of the other dependencies, the features
    rewired accordingly."""
    text = manifest.read_text()
    text = re.sub(r"(?m)^(bincode|zstd)\s*=.*\n", "", text)
    text = re.sub(r'(?m)^(once_cell|regex)\s*=\s*".*"', r'\1 = "1"', text)
    text = re.sub(r'(?m)^rayon\s*=\s*\{.*\}', 'rayon = { version = "1", optional = true }', text)
    text = re.sub(r"(?m)^default\s*=.*$", 'default = ["rayon"]', text)
    text = re.sub(r"(?m)^rayon\s*=\s*\[.*\]$", 'rayon = ["dep:rayon"]', text)
    manifest.write_text(text)


def build(checkout: Path, build_dir: Path) -> tuple[Path, str]:
    """Build the driver against the checkout; return the binary and the commit. The library is
    compiled once per commit (minutes); a changed driver recompiles only itself."""
    staging = build_dir / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    commit = _export(checkout, staging)
    root = build_dir / (commit[:12] if commit != "unknown" else "unknown")
    if (root / "postflop-solver").is_dir():
        shutil.rmtree(staging)
    else:
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        staging.rename(root / "postflop-solver")
        _patch_manifest(root / "postflop-solver" / "Cargo.toml")
    driver = root / "driver"
    (driver / "src").mkdir(parents=True, exist_ok=True)
    (driver / ".cargo").mkdir(exist_ok=True)
    files = {
        driver / "src" / "main.rs": DRIVER.read_text(),
        driver / "Cargo.toml": (
            '[package]\nname = "cfrlib-postflop-driver"\nversion = "0.1.0"\nedition = "2021"\n\n'
            '[dependencies]\npostflop-solver = { path = "../postflop-solver", '
            'default-features = false, features = ["rayon"] }\n'),
        driver / ".cargo" / "config.toml": (
            '[source.crates-io]\nreplace-with = "debian"\n\n'
            f'[source.debian]\ndirectory = "{DEBIAN_REGISTRY}"\n\n'
            '[build]\nrustflags = ["-A", "dangerous_implicit_autorefs", "-C", "target-cpu=native"]\n'),
    }
    for path, text in files.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    print(f"building postflop-solver {commit[:7]} and the driver in {root} (minutes the first "
          "time)...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--offline"], cwd=driver, check=True)
    return driver / "target" / "release" / "cfrlib-postflop-driver", commit


def run(binary: Path, spot: dict[str, Any], threads: int, compression: bool = False) -> dict[str, Any]:
    """The driver's JSON for ``spot`` solved with ``threads`` rayon threads."""
    env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(binary)], input=_driver_input(spot, compression), env=env,
                          capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result: dict[str, Any] = json.loads(done.stdout)
    # the whole process: building the game, iterating, evaluating, finalising
    result["wall_seconds"] = time.perf_counter() - start
    result["cpu_seconds"] = (after.ru_utime + after.ru_stime) - (cpu.ru_utime + cpu.ru_stime)
    return result


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    return {"cpu": cpu, "cores": os.cpu_count(), "rustc": rustc,
            "load_average_before": os.getloadavg()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", type=Path, default=os.environ.get("POSTFLOP_SOLVER"),
                        help="postflop-solver work tree or bare git dir (or $POSTFLOP_SOLVER)")
    parser.add_argument("--build-dir", type=Path,
                        default=Path.home() / ".cache" / "cfrlib" / "postflop-solver")
    parser.add_argument("--spot", nargs="+", default=DEFAULT_SPOTS, choices=list(SPOTS))
    parser.add_argument("--spot-file", type=Path, help="a JSON spot instead of --spot")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, help="override the spot's iterations")
    parser.add_argument("--target-percent", type=float,
                        help="stop at the first check at or below this %% of the starting pot")
    parser.add_argument("--compression", action="store_true", help="16-bit storage")
    parser.add_argument("--out-dir", type=Path, default=HERE / "data")
    args = parser.parse_args()
    if args.checkout is None:
        parser.error("give the postflop-solver checkout: --checkout PATH or $POSTFLOP_SOLVER")
    binary, commit = build(args.checkout.resolve(), args.build_dir.expanduser())
    if args.spot_file:
        spots = {args.spot_file.stem: json.loads(args.spot_file.read_text())}
    else:
        spots = {name: SPOTS[name] for name in args.spot}
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name, spot in spots.items():
        if args.iterations:
            spot = {**spot, "iterations": args.iterations}
        if args.target_percent is not None:
            spot = {**spot, "target": args.target_percent * spot["starting_pot"] / 100}
        for threads in args.threads:
            machine = _machine()
            result = run(binary, spot, threads, args.compression)
            record = {"spot": spot, "threads": threads, "compression": args.compression,
                      "postflop_solver_commit": commit, "machine": machine, "result": result}
            suffix = "_16bit" if args.compression else ""
            out = args.out_dir / f"postflop_solver_{name}_{threads}t{suffix}.json"
            out.write_text(json.dumps(record, indent=1) + "\n")
            pot = spot["starting_pot"]
            print(f"{name}, {threads} thread(s): {result['iterations']} iterations in "
                  f"{result['solve_seconds']:.3f} s, exploitability "
                  f"{result['final_exploitability']:.4f} chips "
                  f"({100 * result['final_exploitability'] / pot:.3f}% of the pot), memory "
                  f"{result['memory_bytes']['float32'] / 2**20:.1f} MiB (32-bit), "
                  f"{result['memory_bytes']['int16'] / 2**20:.1f} MiB (16-bit) -> {out}")


if __name__ == "__main__":
    main()
