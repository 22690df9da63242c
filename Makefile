# The two commands of the README:
#   make book   build the HTML book from scratch from the notebooks' committed outputs (which
#               make test verifies), warnings are errors
#   make test   unit tests of cfrlib and strict nbval over every notebook in chapters/
# Both create the virtual environment .venv on first use.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# The interpreter of .venv: the distribution's Python 3 (/usr/bin/python3) when it is 3.11, the
# Python requirements.txt is pinned for, else PYTHON. Debian builds its interpreter with
# profile-guided and link-time optimisation and links it statically; pyenv's, the python3 these
# machines put first on PATH, has neither and runs from a shared libpython. The same work took
# less CPU on Debian's 3.11.2 than on pyenv's 3.11.7: the textbook CFR 20% less, saving figures
# 8%, imports 9% (Intel Xeon). PYTHON itself runs pip (the distribution's Python may have none):
# it installs uv into .venv.
VENV_PYTHON ?= $(shell /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
                 2>/dev/null && echo /usr/bin/python3 || echo $(PYTHON))
UV_VERSION := 0.13.9
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
# Test workers: make test runs three on this 2-core machine, because part of its run waits
# (notebook kernels starting, the watchdog tests' stalls, book builds in subprocesses) and a third
# worker fills that time (248 s with three against 336 s with two when the waits were longer; now
# 157-170 s against 159-164 s, within this machine's drift). make check waits for little: two
# workers, each collecting the tests once (5 s of CPU), make it 28 s against 32 s with three
# (Intel Xeon, idle). Notebooks stay whole on one worker (--dist loadfile), and files go out in the
# order conftest.py gives them, longest first (--no-loadscope-reorder).
JOBS   ?= 3
CHECK_JOBS ?= 2
# More pytest options for make test and make check, e.g. ARGS="--durations=0" or ARGS="-k lp".
ARGS   ?=

# The stamp is keyed on the pinned requirements, on pyproject.toml and on whether the cfrlib and
# cfrbook packages exist yet (an editable install only maps packages that existed when it ran).
VENV_KEY := $(shell cat requirements.txt pyproject.toml 2>/dev/null | sha256sum | cut -c1-16)-$(if $(wildcard cfrlib/__init__.py),pkg,nopkg)$(if $(wildcard cfrbook/__init__.py),-book)
STAMP    := $(VENV)/.installed-$(VENV_KEY)
LAB_KEY  := $(shell cat requirements-lab.txt 2>/dev/null | sha256sum | cut -c1-16)
# The benchmarks' anchors (OpenSpiel, LiteEFG) in their own environment: LiteEFG needs jax and a
# markdown-it-py that the book's pins exclude. Benchmark scripts find its interpreter through
# CFRLIB_ANCHOR_PYTHON.
ANCHORS      := .venv-anchors
ANCHOR_KEY   := $(shell cat benchmarks/requirements-anchors.txt 2>/dev/null | sha256sum | cut -c1-16)
ANCHOR_STAMP := $(ANCHORS)/.installed-$(ANCHOR_KEY)
export CFRLIB_ANCHOR_PYTHON ?= $(CURDIR)/$(ANCHORS)/bin/python
LAB_STAMP := $(VENV)/.lab-installed-$(LAB_KEY)

# Kernels started by the book build and by JupyterLab come from this environment first.
export JUPYTER_PATH := $(CURDIR)/$(VENV)/share/jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
export JUPYTER_PLATFORM_DIRS := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# These machines set PYTHONDONTWRITEBYTECODE, so every process the commands start (test workers,
# notebook kernels, the CLI tests' subprocesses, book builds) compiled cfrlib's and cfrbook's
# sources again: 1.4 s of CPU to import them from source against 0.4 s from bytecode (Intel Xeon).
# The commands let Python keep its bytecode in __pycache__ (ignored by git, removed by make clean).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help venv book assets test test-avx2 check execute lab bench anchors clean

help:
	@echo "make book    build the HTML book in _build/html (creates .venv on first use)"
	@echo "make test    unit tests + strict nbval over every notebook in chapters/"
	@echo "make check   the quick tier: unit tests only, under a minute"
	@echo "make test-avx2  the notebooks again with the arithmetic of a CPU without AVX-512"
	@echo "make execute re-execute notebooks in place (NB=chapters/04_vanilla_cfr.ipynb; default all)"
	@echo "make lab     open the notebooks in JupyterLab"
	@echo "make bench   run the benchmarks (with OpenSpiel and LiteEFG in .venv-anchors) into benchmarks/README.md"
	@echo "make clean   remove _build, the offline JS assets and caches (keeps .venv)"

venv: $(STAMP)

# uv installs the pinned requirements in about 15 s where pip takes about 90 (a fresh machine, no
# cache: parallel downloads, no per-package resolution), and cfrlib itself, editable, in a fraction
# of pip's 2 s; pip stays the fallback. uv writes no .pyc files: the first process to import a
# module writes its bytecode (the commands unexport PYTHONDONTWRITEBYTECODE, above), so only the
# modules the book and its tests import are compiled, and mostly by the background steps below. uv's
# --compile-bytecode compiled all 9,000 modules of the environment at install, 10 s before anything
# else could start (Intel Xeon); compileall still compiles the checkout's own modules. Then numba
# compiles cfrlib's walks, hold'em kernels, exact evaluation and Deep CFR's traversal once into its
# on-disk cache (about 40 s of CPU; 45 to 53 on a 2.5 GHz Xeon, about 21 of it in one process for
# the hold'em kernels, 5 to 8 for each sampling walk), rather than in every test process and
# notebook kernel that first needs them at once; meanwhile mypy fills .mypy_cache (15 s of CPU,
# 19 on the 2.5 GHz Xeon: the stubs of numpy, scipy and matplotlib; then 1 s), on the core the
# hold'em compilation leaves free, so that make check stays under a minute from the first run
# (tests/test_types.py reports type errors); and pytest collects
# every test once, which writes the test modules with their asserts rewritten to __pycache__ (4 s of
# CPU), rather than each test worker of the first make test or make check rewriting them all again
# (8 s of collection in a worker cold, 4 s warm; Intel Xeon).
$(STAMP):
	@test -x $(BIN)/python || $(VENV_PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet uv==$(UV_VERSION) \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.txt \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e . \
	  || { $(PYTHON) -m pip --python $(BIN)/python install --quiet -r requirements.txt \
	       && $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .; }
	$(BIN)/python -m compileall -q -j 0 cfrlib cfrbook tools tests conftest.py
	@echo "mypy and pytest: filling their caches in the background"
	@$(BIN)/python -m mypy --config-file pyproject.toml >/dev/null & mypy=$$!; \
	  $(BIN)/python -m pytest --collect-only -q -p no:cacheprovider tests chapters >/dev/null 2>&1 & collect=$$!; \
	  $(BIN)/python -m cfrlib.compile_cache; wait $$mypy || true; wait $$collect || true
	@rm -f $(VENV)/.installed-*
	@touch $@
	@echo "virtual environment ready: $(VENV)"

# Offline MathJax and ipywidgets manager (pinned npm packages); skipped with a notice when npm
# is missing, and the book then loads them from the public CDNs.
assets:
	@tools/vendor-assets

book: venv assets
	@PATH="$(BIN):$$PATH" tools/build-book .

test: venv
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder --durations=5 $(ARGS)

# The notebooks again with the arithmetic of a CPU without AVX-512, such as the slower EPYC of issue
# 40 (CI runs it after make test): numpy's AVX2 kernels (its AVX-512 targets disabled), OpenBLAS's
# for Zen and numba's code for Zen 3, each compiled once into numba's cache first. A printed number
# that differs there by more than round-off (tests/nbval_sanitize.cfg) fails here, on a machine with
# AVX-512, as it would on such a CPU; on a CPU without AVX-512 this is make test's notebooks again.
AVX2_ENV := NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR" OPENBLAS_CORETYPE=Zen NUMBA_CPU_NAME=znver3

test-avx2: venv
	$(AVX2_ENV) $(BIN)/python -m cfrlib.compile_cache
	$(AVX2_ENV) $(MAKE) --no-print-directory test ARGS="chapters $(ARGS)"

# The quick tier, to run while working: cfrlib's unit tests, without the notebooks, the browser,
# book builds or wheel builds (markers in pytest.ini).
check: venv
	$(BIN)/python -m pytest -n $(CHECK_JOBS) -p no:cacheprovider tests --ignore=tests/browser \
	  -m "not book and not wheel and not slow" --durations=5 $(ARGS)

# The book publishes the committed outputs: after editing a notebook, execute it here, then
# run make test (strict nbval checks that a fresh run reproduces every output).
NB ?= $(wildcard chapters/*.ipynb)
execute: venv
	$(BIN)/python tools/execute-notebooks $(NB)

lab: venv $(LAB_STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS) chapters/

$(LAB_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-lab.txt
	@rm -f $(VENV)/.lab-installed-*
	@touch $@

# First use: 2.5 minutes with pip's cache warm, LiteEFG's wheel included; compiling LiteEFG's C++
# from its sdist took another 10.5 minutes on this 2-core machine while it was busy (load 15).
anchors: $(ANCHOR_STAMP)

$(ANCHOR_STAMP):
	@test -x $(ANCHORS)/bin/python || $(PYTHON) -m venv $(ANCHORS)
	$(ANCHORS)/bin/python -m pip install --quiet --upgrade pip
	$(ANCHORS)/bin/python -m pip install --quiet -r benchmarks/requirements-anchors.txt
	@rm -f $(ANCHORS)/.installed-*
	@touch $@
	@echo "anchors ready: $(ANCHORS)"

# Without the anchors (no registry, a failed build) the benchmarks still run and say so.
bench: venv
	@$(MAKE) --no-print-directory anchors || echo "make bench: the anchors could not be installed; running without them"
	$(BIN)/python benchmarks/report.py $(BENCH_ARGS)

clean:
	rm -rf _build _vendor chapters/api .pytest_cache .mypy_cache
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +
