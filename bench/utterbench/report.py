"""Table cells and rows: median and p95 of ours against theirs, their ratio, a target's verdict."""

from .statistics import median, percentile


def fmt(v, digits=1):
    """A figure with `digits` decimals, or n/a."""
    return "n/a" if v is None else "%.*f" % (digits, v)


def summary(values):
    """(median, p95, count) of values; (None, None, 0) when there are none."""
    if not values:
        return None, None, 0
    return median(values), percentile(values, 95), len(values)


def ratio(ours, theirs):
    """ours/theirs with two decimals, or n/a when either is missing (or theirs is 0)."""
    if ours is None or theirs in (None, 0):
        return "n/a"
    return "%.2f" % (ours / theirs)


def header(line):
    """Prints a table's header line and a rule as long as it."""
    print(line)
    print("-" * len(line))


def ratio_target(limit, absolute=None):
    """A target on ours/theirs (medians), and optionally on our median alone (ms):
    check(ours_med, ours_p95, theirs_med) -> (text, ok or None when not measured)."""
    def check(om, op, tm):
        if om is None or tm is None or tm == 0:
            return ("<= %.2fx" % limit, None)
        ok = om / tm <= limit
        text = "<= %.2fx" % limit
        if absolute is not None:
            ok = ok and om <= absolute
            text += ", <= %g ms" % absolute
        return text, ok
    return check


def abs_target(text, test):
    """A target on our figures alone: test(ours_med, ours_p95) -> ok."""
    def check(om, op, tm):
        if om is None:
            return text, None
        return text, test(om, op)
    return check
