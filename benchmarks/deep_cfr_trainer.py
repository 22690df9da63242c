"""Deep CFR's training step on this CPU: cfrlib's numpy trainer against JAX with Optax (issue 38).

Both train the recorded Leduc run's advantage network (``deep_cfr.CONFIG``: the Leduc features,
three hidden layers of 64, three outputs; minibatches of 1,024 drawn with replacement; Adam with
the gradient's norm clipped to 1 and the learning rate falling linearly to 0; the weighted squared
loss over the legal actions) and its policy network (the weighted cross-entropy), for the
configuration's 600 steps, on the same synthetic memory, from the same weights, drawing the same
minibatch rows. So they compute the same thing (the mean loss of the last tenth of the steps is
compared), and only the time differs. Times are CPU seconds of the process, each library on one
thread (numpy's BLAS limited to one thread, as ``cfrlib.deep_cfr.fit`` does; XLA's intra-op pool
limited to one), and JAX's compilation is reported apart.

Run from the repository root: ``python benchmarks/deep_cfr_trainer.py [--jax-python PATH]``. The
JAX side runs under the anchors' interpreter (``.venv-anchors/bin/python``, made by ``make bench``:
it holds jax 0.7.2 and optax 0.2.8, pinned in ``benchmarks/requirements-anchors.txt``), or the one
``--jax-python`` names. Writes ``benchmarks/data/deep_cfr_trainer.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "data" / "deep_cfr_trainer.json"
ROWS = 200_000           # rows in the memory (the recorded run's reservoirs hold up to 1,000,000)
SEED = 0
LOSSES = ("mse", "xent")


def memory(num_features: int, actions: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A synthetic memory shaped like Deep CFR's: binary features, targets on the legal actions
    (regrets for "mse", a distribution for "xent"), iteration weights ``t`` in 1..400."""
    x = (rng.random((ROWS, num_features)) < 0.15).astype(np.float32)
    mask = rng.random((ROWS, actions)) < 0.8
    mask[np.arange(ROWS), rng.integers(actions, size=ROWS)] = True
    regrets = np.where(mask, rng.normal(0.0, 2.0, (ROWS, actions)), 0.0).astype(np.float32)
    probs = np.where(mask, rng.random((ROWS, actions)), 0.0)
    probs = (probs / probs.sum(axis=1, keepdims=True)).astype(np.float32)
    weight = rng.integers(1, 401, size=ROWS).astype(np.float32)
    return {"x": x, "mask": mask, "mse": regrets, "xent": probs, "weight": weight / weight.mean()}


def numpy_side(data: dict[str, np.ndarray], params: list[np.ndarray], config: dict) -> dict:
    """cfrlib's trainer, ``cfrlib.deep_cfr.fit``, timed."""
    from cfrlib.deep_cfr import MLP, fit

    out = {}
    for loss in LOSSES:
        net = MLP(config["sizes"], np.random.default_rng(0))
        net.params = [p.copy() for p in params]
        start = time.process_time()
        tail = fit(net, data["x"], data[loss], data["mask"], data["weight"], loss=loss,
                   steps=config["steps"], batch_size=config["batch_size"],
                   learning_rate=config["learning_rate"], rng=np.random.default_rng(SEED))
        out[loss] = {"cpu_seconds": time.process_time() - start, "tail_loss": tail}
    return out


def jax_side(data: dict[str, np.ndarray], params: list[np.ndarray], config: dict) -> dict:
    """The same training in JAX: one jitted step (forward, loss, gradient, clipping, Adam), the
    minibatch gathered on the device from rows drawn as ``fit`` draws them."""
    import jax
    import jax.numpy as jnp
    import optax

    steps, batch = config["steps"], config["batch_size"]
    x, mask, weight = (jnp.asarray(data[k]) for k in ("x", "mask", "weight"))

    def forward(p, inputs):
        h = inputs
        for j in range(0, len(p) - 2, 2):
            h = jax.nn.relu(h @ p[j] + p[j + 1])
        return h @ p[-2] + p[-1]

    def objective(p, rows, target, loss):
        out, legal, w = forward(p, x[rows]), mask[rows], weight[rows, None]
        if loss == "mse":
            diff = jnp.where(legal, out - target[rows], 0.0)
            return (w * diff * diff).sum() / batch
        logp = jax.nn.log_softmax(jnp.where(legal, out, -jnp.inf), axis=1)
        return -(w * target[rows] * jnp.where(legal, logp, 0.0)).sum() / batch

    out_of = {}
    for loss in LOSSES:
        target = jnp.asarray(data[loss])
        schedule = optax.linear_schedule(config["learning_rate"], 0.0, steps)
        optimizer = optax.chain(optax.clip_by_global_norm(1.0),
                                optax.adam(schedule, b1=0.9, b2=0.999, eps=1e-8))

        @jax.jit
        def step(p, state, rows, target=target, loss=loss, optimizer=optimizer):
            value, grads = jax.value_and_grad(objective)(p, rows, target, loss)
            updates, state = optimizer.update(grads, state, p)
            return optax.apply_updates(p, updates), state, value

        p = [jnp.asarray(q) for q in params]
        state = optimizer.init(p)
        rng = np.random.default_rng(SEED)
        start = time.process_time()
        jax.block_until_ready(step(p, state, jnp.zeros(batch, dtype=jnp.int32)))
        compile_seconds = time.process_time() - start
        tail, tail_steps = 0.0, max(1, steps // 10)
        start = time.process_time()
        for k in range(1, steps + 1):
            rows = rng.integers(ROWS, size=batch)
            p, state, value = step(p, state, rows)
            if k > steps - tail_steps:
                tail += float(value) / tail_steps
        looped = time.process_time() - start

        @jax.jit
        def run(p, state, all_rows, step=step):     # every step in one call: lax.scan
            def one(carry, rows):
                p, state, value = step(*carry, rows)
                return (p, state), value
            (p, state), values = jax.lax.scan(one, (p, state), all_rows)
            return p, values

        all_rows = np.random.default_rng(SEED).integers(ROWS, size=(steps, batch))
        p, state = [jnp.asarray(q) for q in params], optimizer.init(p)
        start = time.process_time()
        jax.block_until_ready(run(p, state, all_rows))           # compiles, and runs once
        scan_first = time.process_time() - start
        start = time.process_time()
        _, values = jax.block_until_ready(run(p, state, all_rows))
        scanned = time.process_time() - start
        out_of[loss] = {"cpu_seconds": looped, "tail_loss": tail,
                        "compile_cpu_seconds": compile_seconds, "scan_cpu_seconds": scanned,
                        "scan_compile_cpu_seconds": scan_first - scanned,
                        "scan_tail_loss": float(values[-tail_steps:].mean())}
    return {"jax": jax.__version__, "optax": optax.__version__, **out_of}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jax-python", default=str(ROOT / ".venv-anchors" / "bin" / "python"))
    parser.add_argument("--jax-side", help=argparse.SUPPRESS)   # the child: the data's directory
    args = parser.parse_args()
    if args.jax_side:
        folder = Path(args.jax_side)
        arrays = np.load(folder / "data.npz")
        config = json.loads((folder / "config.json").read_text())
        params = [arrays[f"p{j}"] for j in range(2 * (len(config["sizes"]) - 1))]
        data = {k: arrays[k] for k in ("x", "mask", "mse", "xent", "weight")}
        (folder / "jax.json").write_text(json.dumps(jax_side(data, params, config)))
        return

    sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
    from cfrlib import games
    from cfrlib.deep_cfr import MLP, feature_names
    from deep_cfr import CONFIG

    leduc = games.leduc()
    sizes = [len(feature_names(leduc)), *CONFIG["hidden"], int(leduc.tree().action_mask.shape[1])]
    config = {"sizes": sizes, "steps": CONFIG["advantage_steps"],
              "batch_size": CONFIG["batch_size"], "learning_rate": CONFIG["learning_rate"]}
    data = memory(sizes[0], sizes[-1], np.random.default_rng(1))
    params = MLP(sizes, np.random.default_rng(2)).params
    with tempfile.TemporaryDirectory() as folder:
        np.savez(Path(folder) / "data.npz", **data, **{f"p{j}": p for j, p in enumerate(params)})
        (Path(folder) / "config.json").write_text(json.dumps(config))
        env = {**os.environ, "JAX_PLATFORMS": "cpu",
               "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"}
        subprocess.run([args.jax_python, __file__, "--jax-side", folder], check=True, env=env)
        jax_result = json.loads((Path(folder) / "jax.json").read_text())
    numpy_result = numpy_side(data, params, config)
    rows = {}
    for loss in LOSSES:
        mine, theirs = numpy_result[loss], jax_result[loss]
        rows[loss] = {"numpy_ms_per_step": 1e3 * mine["cpu_seconds"] / config["steps"],
                      "jax_ms_per_step": 1e3 * theirs["cpu_seconds"] / config["steps"],
                      "numpy_over_jax": mine["cpu_seconds"] / theirs["cpu_seconds"],
                      "jax_compile_cpu_seconds": theirs["compile_cpu_seconds"],
                      "jax_scan_ms_per_step": 1e3 * theirs["scan_cpu_seconds"] / config["steps"],
                      "numpy_over_jax_scan": mine["cpu_seconds"] / theirs["scan_cpu_seconds"],
                      "jax_scan_compile_cpu_seconds": theirs["scan_compile_cpu_seconds"],
                      "tail_loss": {"numpy": mine["tail_loss"], "jax": theirs["tail_loss"],
                                    "jax_scan": theirs["scan_tail_loss"]}}
        same = all(math.isclose(mine["tail_loss"], theirs[key], rel_tol=0.02)
                   for key in ("tail_loss", "scan_tail_loss"))
        print(f"{loss}: numpy {rows[loss]['numpy_ms_per_step']:.2f} ms/step, JAX "
              f"{rows[loss]['jax_ms_per_step']:.2f} ms/step (x{rows[loss]['numpy_over_jax']:.2f}), "
              f"JAX in one lax.scan {rows[loss]['jax_scan_ms_per_step']:.2f} ms/step "
              f"(x{rows[loss]['numpy_over_jax_scan']:.2f}); JAX compiles "
              f"{theirs['compile_cpu_seconds']:.1f} s, {theirs['scan_compile_cpu_seconds']:.1f} s; "
              f"last-tenth loss {mine['tail_loss']:.4f}, {theirs['tail_loss']:.4f}, "
              f"{theirs['scan_tail_loss']:.4f}" + ("" if same else "  DIFFERENT"))
    OUT.write_text(json.dumps({"config": config, "rows": ROWS, "results": rows,
                               "jax": jax_result["jax"], "optax": jax_result["optax"],
                               "numpy": np.__version__, "machine": platform.processor() or platform.machine(),
                               "load_average": os.getloadavg()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
