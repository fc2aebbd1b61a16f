"""The one percentile and median every table in bench/ prints."""

import unittest

from utterbench.statistics import median, percentile


class PercentileTests(unittest.TestCase):
    def test_p95_of_five_or_ten_values_is_the_largest(self):
        self.assertEqual(percentile([5, 1, 4, 2, 3], 95), 5)
        self.assertEqual(percentile(list(range(10, 0, -1)), 95), 10)

    def test_p95_of_forty_values_is_the_thirty_eighth(self):
        # rank round(38 + 0.5) = 38 (halves to even): the value 37 of 0..39
        self.assertEqual(percentile(list(range(40)), 95), 37)

    def test_p95_of_twenty_values_is_the_largest_as_the_tables_always_printed(self):
        self.assertEqual(percentile(list(range(20)), 95), 19)

    def test_p50_of_fifty_values_is_a_value_of_the_set_near_the_middle(self):
        self.assertEqual(percentile(list(range(50)), 50), 25)

    def test_a_single_value_is_every_percentile(self):
        self.assertEqual(percentile([7.5], 5), 7.5)
        self.assertEqual(percentile([7.5], 95), 7.5)

    def test_the_order_of_the_values_does_not_matter(self):
        values = [0.3, 9.1, 2.2, 7.7, 4.4, 1.0, 8.8]
        self.assertEqual(percentile(values, 95), percentile(sorted(values), 95))
        self.assertEqual(percentile(values, 95), 9.1)


class MedianTests(unittest.TestCase):
    def test_an_odd_count_gives_the_middle_value(self):
        self.assertEqual(median([3, 1, 2]), 2)

    def test_an_even_count_gives_the_mean_of_the_two_middle_values(self):
        self.assertEqual(median([4, 1, 3, 2]), 2.5)


if __name__ == "__main__":
    unittest.main()
