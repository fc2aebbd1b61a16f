"""The one median and percentile every benchmark's table uses."""

# The standard library's module (absolute import: this file's own name does not shadow it).
from statistics import median

__all__ = ["median", "percentile"]


def percentile(values, p):
    """Nearest-rank percentile: the value at rank round(p% of n + 0.5) of the sorted values
    (Python's round, halves to even: for 20 values p95 is the largest)."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]
