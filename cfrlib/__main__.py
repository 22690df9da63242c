"""``python -m cfrlib``: the command line of :mod:`cfrlib.cli`."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
