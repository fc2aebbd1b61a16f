"""How espeak-ng's Chinese voices read Han characters, against hand-written readings of the same
sentences: Mandarin in pinyin with tone numbers (read by the cmn-Latn-pinyin voice), Cantonese in
Jyutping (read by yue-Latn-jyutping).

Per sentence: the duration of the Han text over the reference reading's, whether espeak-ng
switched to English for it (`(en)` in its phonemes), and whether its phonemes equal the
reference's (word and stress marks aside), for
  cmn              the voice `-l zh` finds first: reads Han as pinyin spelled in English
  cmn-Latn-pinyin  the same dictionary read as Mandarin, character by character
  yue              Cantonese (first set only)
With --reader FILE (lines `HAN<TAB>what ChineseReading gives the voice`, written by
`UTTER_MANDARIN_READINGS=FILE swift test --filter ChineseReadingTests`), that text too.
The sentences are Tests/ChineseReadingTests/Sentences.tsv.

Usage: bench/mandarin [--reader FILE]
"""


import argparse
import os
import re
import subprocess
import tempfile

from . import ROOT
from .capture import seconds_of
from .statistics import median

# (Han, pinyin as spoken, Jyutping or None), shared with ChineseReadingTests.
SENTENCES = []
with open(os.path.join(ROOT, "Tests/ChineseReadingTests/Sentences.tsv"), encoding="utf-8") as sentences:
    for row in sentences:
        if row.strip() and not row.startswith("#"):
            han, pinyin, jyutping = row.rstrip("\n").split("\t")
            SENTENCES.append((han, pinyin, jyutping or None))

PATH = os.path.join(tempfile.mkdtemp(prefix="utter-bench-mandarin-"), "out.wav")


def seconds(voice, text):
    subprocess.run(["/usr/bin/espeak-ng", "-v", voice, "-w", PATH, text], check=True)
    return seconds_of(PATH)


def phonemes(voice, text):
    return subprocess.run(["/usr/bin/espeak-ng", "-v", voice, "-q", "-x", text], check=True, capture_output=True,
                          text=True).stdout


def sounds(text):
    return re.sub(r"[_|',\s]", "", text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reader", help="lines HAN<TAB>ChineseReading's text for the voice")
    args = parser.parse_args()
    reader = {}
    if args.reader:
        with open(args.reader, encoding="utf-8") as f:
            reader = dict(line.rstrip("\n").split("\t", 1) for line in f if "\t" in line)
    kinds = [("cmn", "cmn", None), ("pinyin voice", "cmn-Latn-pinyin", None)]
    if reader:
        kinds.append(("reader", "cmn-Latn-pinyin", reader))
    ratios = {name: [] for name, _, _ in kinds}
    same = {name: 0 for name, _, _ in kinds}
    english = {name: 0 for name, _, _ in kinds}
    yue = []
    print("duration / reference; en = switched to English; = phonemes equal the reference's")
    print("%-34s" % "sentence" + "".join("%-16s" % name for name, _, _ in kinds) + "yue")
    for han, pinyin, jyutping in SENTENCES:
        reference = seconds("cmn-Latn-pinyin", pinyin)
        expected = sounds(phonemes("cmn-Latn-pinyin", pinyin))
        line = "%-28s" % han
        for name, voice, texts in kinds:
            text = texts[han] if texts is not None else han
            read = phonemes(voice, text)
            ratio = seconds(voice, text) / reference
            ratios[name].append(ratio)
            english[name] += "(en)" in read
            same[name] += sounds(read) == expected
            line += "%-16s" % ("%.2f %s%s" % (ratio, "en " if "(en)" in read else "", "=" if sounds(read) == expected
                                             else ""))
        if jyutping:
            ratio = seconds("yue", han) / seconds("yue-Latn-jyutping", jyutping)
            yue.append(ratio)
            line += "%.2f%s" % (ratio, " en" if "(en)" in phonemes("yue", han) else "")
        print(line)
    print()
    for name, _, _ in kinds:
        values = ratios[name]
        print("%-13s ratio %.2f-%.2f (median %.2f); English in %d of %d; phonemes equal in %d" % (
            name, min(values), max(values), median(values), english[name], len(values), same[name]))
    print("%-13s ratio %.2f-%.2f (median %.2f) against Jyutping, %d sentences" % (
        "yue", min(yue), max(yue), median(yue), len(yue)))
    return 0
