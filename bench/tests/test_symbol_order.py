"""The layout of packaging/sd_utter.order: each session's functions lie together."""

import unittest

from utterbench.symbol_order import grouped


class GroupedTests(unittest.TestCase):
    def test_each_session_runs_consecutive_groups_and_japanese_comes_last(self):
        runs = {
            "alsa": {"core", "ring", "alsa_render", "alsa_pw", "alsa_pulse"},
            "pulse": {"core", "ring", "pulse_own", "servers", "alsa_pulse"},
            "pipewire": {"core", "ring", "pipewire_own", "servers", "alsa_pw"},
            "ja": {"core", "ring", "alsa_render", "mecab", "kana"},
        }
        flat = [name for group in grouped(runs) for name in group]
        self.assertEqual(flat, [
            "alsa_render", "alsa_pw", "alsa_pulse", "core", "ring", "servers", "pulse_own", "pipewire_own",
            "kana", "mecab"])
        # What an English message on ALSA runs is one stretch, with nothing of the others inside it.
        alsa = [i for i, name in enumerate(flat) if name in runs["alsa"]]
        self.assertEqual(alsa, list(range(alsa[0], alsa[-1] + 1)))

    def test_every_function_is_written_once(self):
        runs = {"alsa": {"a", "b"}, "pulse": {"b"}, "pipewire": set(), "ja": {"a", "j"}}
        flat = [name for group in grouped(runs) for name in group]
        self.assertEqual(sorted(flat), ["a", "b", "j"])


if __name__ == "__main__":
    unittest.main()
