"""Table cells: figures, ratios and targets as bench/run and bench/server print them."""

import io
import unittest
from contextlib import redirect_stdout

from utterbench.report import abs_target, fmt, header, ratio, ratio_target, summary


class CellTests(unittest.TestCase):
    def test_a_missing_figure_is_n_a(self):
        self.assertEqual(fmt(None, 2), "n/a")

    def test_a_figure_gets_the_digits_asked_for(self):
        self.assertEqual(fmt(12.345, 1), "12.3")
        self.assertEqual(fmt(3, 0), "3")
        self.assertEqual(fmt(0.12345, 4), "0.1235")

    def test_the_ratio_is_ours_over_theirs_or_n_a(self):
        self.assertEqual(ratio(30.0, 40.0), "0.75")
        self.assertEqual(ratio(None, 40.0), "n/a")
        self.assertEqual(ratio(30.0, None), "n/a")
        self.assertEqual(ratio(30.0, 0), "n/a")

    def test_the_summary_is_median_p95_and_count(self):
        self.assertEqual(summary([4.0, 1.0, 3.0, 2.0, 10.0]), (3.0, 10.0, 5))
        self.assertEqual(summary([]), (None, None, 0))
        self.assertEqual(summary(None), (None, None, 0))

    def test_the_header_is_underlined_as_long_as_it_is(self):
        out = io.StringIO()
        with redirect_stdout(out):
            header("metric    ours")
        self.assertEqual(out.getvalue(), "metric    ours\n--------------\n")


class TargetTests(unittest.TestCase):
    def test_a_ratio_target_passes_at_or_under_its_limit(self):
        self.assertEqual(ratio_target(0.5)(10.0, 12.0, 20.0), ("<= 0.50x", True))
        self.assertEqual(ratio_target(0.5)(10.1, 12.0, 20.0), ("<= 0.50x", False))

    def test_a_ratio_target_with_an_absolute_limit_needs_both(self):
        self.assertEqual(ratio_target(0.5, 10)(9.0, 9.0, 30.0), ("<= 0.50x, <= 10 ms", True))
        self.assertEqual(ratio_target(0.5, 10)(11.0, 11.0, 30.0), ("<= 0.50x, <= 10 ms", False))

    def test_a_target_without_figures_has_no_verdict(self):
        self.assertEqual(ratio_target(1.0)(None, None, 3.0), ("<= 1.00x", None))
        self.assertEqual(ratio_target(1.0)(3.0, 3.0, 0), ("<= 1.00x", None))
        self.assertEqual(abs_target("0", lambda m, p: p == 0)(None, None, None), ("0", None))

    def test_an_absolute_target_judges_our_figures(self):
        check = abs_target("p95 <= 10 ms", lambda m, p: abs(p) <= 10)
        self.assertEqual(check(2.0, -9.5, None), ("p95 <= 10 ms", True))
        self.assertEqual(check(2.0, 10.5, None), ("p95 <= 10 ms", False))


if __name__ == "__main__":
    unittest.main()
