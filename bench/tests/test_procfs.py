import os
import unittest

from utterbench.procfs import memory_parts_mib, private_kib

SMAPS = """\
55d0c0000000-55d0c0100000 r-xp 00000000 08:01 1234   /usr/bin/thing
Rss:                 400 kB
Private_Dirty:       400 kB
Anonymous:             0 kB
55d0c0100000-55d0c0110000 rw-p 00100000 08:01 1234   /usr/bin/thing
Rss:                  64 kB
Private_Dirty:        48 kB
Anonymous:            48 kB
55d0c1000000-55d0c1200000 rw-p 00000000 00:00 0      [heap]
Rss:                 700 kB
Private_Dirty:       700 kB
Anonymous:           700 kB
7f0000000000-7f0000100000 rw-p 00000000 00:00 0
Rss:                 120 kB
Private_Dirty:       100 kB
Anonymous:           120 kB
"""


class PrivateMemoryTests(unittest.TestCase):
    def test_anonymous_pages_count_and_a_just_written_file_s_dirty_code_does_not(self):
        self.assertEqual(private_kib(SMAPS), 48 + 700 + 120)

    def test_this_process_has_private_memory_below_its_resident_memory(self):
        parts = memory_parts_mib(os.getpid())
        self.assertGreater(parts["Private"], 0)
        self.assertLessEqual(parts["Private"], parts["RssAnon"] + parts["RssFile"])


if __name__ == "__main__":
    unittest.main()
