"""The solvers: the full-width CFR family and the sampling family, one interface."""

from .base import ConvergenceLog, Solver

__all__ = ["ConvergenceLog", "Solver"]
