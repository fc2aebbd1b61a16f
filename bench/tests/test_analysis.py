"""Reading recorded speech: audible runs, silences, steps and how a stopped sound ends."""

import math
import unittest

from utterbench.analysis import RATE, heard_samples, judge_cut, largest_step, loud_runs


def tone(seconds, amplitude=8000, frequency=220.0):
    return [int(amplitude * math.sin(2 * math.pi * frequency * n / RATE)) for n in range(int(seconds * RATE))]


def silence(seconds):
    return [0] * int(seconds * RATE)


class RunsTests(unittest.TestCase):
    def test_runs_split_at_silences_of_the_given_length_only(self):
        s = [0, 0, 500, 400, 0, 0, 0, -300, 0, 1000, 0]
        self.assertEqual(loud_runs(s, 3), [(2, 4), (7, 10)])
        self.assertEqual(loud_runs(s, 1), [(2, 4), (7, 8), (9, 10)])

    def test_samples_under_minus_forty_dbfs_are_not_audible(self):
        self.assertEqual(loud_runs([299, -299, 0, 299], 1), [])
        self.assertEqual(loud_runs([299, -300, 0, 300], 1), [(1, 2), (3, 4)])

    def test_heard_samples_leave_out_the_silences_between_runs(self):
        s = tone(0.2) + silence(0.1) + tone(0.3)
        heard = heard_samples(s, int(0.03 * RATE))
        # the tone's zero crossings fall inside runs: only the 100 ms gap (and edges) is left out
        self.assertGreater(heard, int(0.49 * RATE))
        self.assertLess(heard, int(0.5 * RATE) + 1)

    def test_the_largest_step_is_between_neighbours(self):
        self.assertEqual(largest_step([0, 100, -200, -150, 3000, 2990]), 3150)
        self.assertEqual(largest_step([5]), 0)


class CutTests(unittest.TestCase):
    """judge_cut on a synthetic sentence: a tone stopped dead, or faded over 4 ms."""

    margin = RATE // 10
    speech = tone(1.0)
    reference = silence(0.1) + speech + silence(0.3)

    def stopped(self, after, fade_ms):
        cut = self.speech[:int(after * RATE)]
        fade = int(fade_ms * RATE / 1000)
        if fade:
            cut = cut[:-fade] + [int(v * (fade - i) / fade) for i, v in enumerate(cut[-fade:])]
        return silence(0.1) + cut + silence(0.5)

    def test_a_sound_stopped_dead_keeps_its_full_level_to_the_end(self):
        gain, last_ms, natural = judge_cut(self.stopped(0.43, 0), self.margin, self.reference, self.margin)
        self.assertGreater(gain, 0.8)
        self.assertGreater(last_ms, 0.5)
        self.assertFalse(natural, "the unstopped sentence goes on after the cut")

    def test_a_sound_that_ends_with_the_sentence_is_a_natural_end(self):
        gain, _, natural = judge_cut(self.stopped(1.0, 0), self.margin, self.reference, self.margin)
        self.assertTrue(natural, "the unstopped sentence falls silent there too (gain %.2f)" % gain)

    def test_a_sound_faded_over_four_ms_ends_far_below_its_level(self):
        gain, _, natural = judge_cut(self.stopped(0.43, 4), self.margin, self.reference, self.margin)
        self.assertLess(gain, 0.5)
        self.assertFalse(natural)

    def test_a_sound_that_never_ends_is_not_judged(self):
        self.assertIsNone(judge_cut(silence(0.1) + self.speech, self.margin, self.reference, self.margin))


if __name__ == "__main__":
    unittest.main()
