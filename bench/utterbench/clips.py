"""Clip voice benchmark: what a clip voice costs sd_utter, spawned directly and driven over the
module protocol (bench/run's driver), on the unpaced ALSA `file` device.

A clip voice of N phrases (default 2,000; each a 0.4 s 16-bit WAV at 22,050 Hz, written once into a
scratch folder) is installed through VoiceFolder. Per repetition (fresh process each time):
  startup        spawn -> 299 with the clip voice installed, and without it
  list voices    LIST VOICES -> last line, with the clip voice (its folder is checked each time)
  first audio    SPEAK "." written -> first bytes captured, for the first message of a process:
                 12 words, all clips, first use (the clips are decoded); the espeak-ng voice on the
                 same text (in a process of its own)
  whole message  SPEAK "." written -> 702 for the same messages and for the clips again, cached
                 (unpaced: all decoding, matching and writing, no real-time playback)
  RSS            VmHWM after a message that plays every clip once (the clip cache is bounded)
Prints median and p95 of each figure.

Usage: bench/clips [--reps N] [--phrases N] [UTTER_BINARY]
       (default UTTER_BINARY: .build/release/sd_utter; build with swift build -c release)
"""

import argparse
import math
import os
import shutil
import struct
import sys
import tempfile
import time

from . import ROOT
from .capture import wait_for_bytes
from .processes import BenchError
from .protocol import SET_BLOCK, Module, handshake, speak, terminal
from .statistics import median, percentile

DEVICE_CONF = """pcm.utter_capture { type file slave.pcm "utter_sink" file "@CAPTURE@" format "raw" }
pcm.utter_sink { type null }
"""
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
         "kilo", "lima"]


def phrase(index):
    return WORDS[index] if index < len(WORDS) else "phrase%d" % index


def make_voice(folder, phrases, names=None):
    """A clip voice "Bench Clips" in folder/bench-voice: `phrases` clips (the phrases `names`,
    else alpha, bravo, ... phrase12, ...), each a 0.4 s tone."""
    voice = os.path.join(folder, "bench-voice")
    os.makedirs(voice)
    count = int(0.4 * 22050)
    lines = ['Name "Bench Clips"', 'PrimaryLanguage "en-US"', 'Fallback "espeak-ng" "English (America)"']
    for index in range(phrases):
        samples = [int(8000 * math.sin(2 * math.pi * (300 + index % 700) * n / 22050)) for n in range(count)]
        data = struct.pack("<%dh" % count, *samples)
        header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
            "<IHHIIHH", 16, 1, 1, 22050, 44100, 2, 16) + b"data" + struct.pack("<I", len(data))
        with open(os.path.join(voice, "%d.wav" % index), "wb") as f:
            f.write(header + data)
        lines.append('Clip "%s" "%d.wav"' % (names[index] if names else phrase(index), index))
    with open(os.path.join(voice, "voice.conf"), "w") as f:
        f.write("\n".join(lines) + "\n")


def set_block(voice):
    return [line if not line.startswith("synthesis_voice=") else "synthesis_voice=" + voice
            for line in SET_BLOCK]


def first_audio_and_end(m, capture, text, voice, timeout):
    before = os.path.getsize(capture) if os.path.exists(capture) else 0
    t_sent = speak(m, text, set_block(voice))
    t_first = wait_for_bytes(capture, before, t_sent + timeout, 0.0002)
    if t_first is None:
        raise BenchError("no audio for %r" % text[:40])
    t_end, line = m.wait_for(terminal, "terminal event")
    if not line.startswith(b"702"):
        raise BenchError("message ended with %r" % line)
    return t_first - t_sent, t_end - t_sent


def one_run(binary, voices, timeout, env_base, with_clips):
    scratch = tempfile.mkdtemp(prefix="utter-bench-clips-")
    capture = os.path.join(scratch, "out.raw")
    with open(os.path.join(scratch, ".asoundrc"), "w") as f:
        f.write(DEVICE_CONF.replace("@CAPTURE@", capture))
    env = dict(env_base)
    env["HOME"] = scratch
    m = Module(binary, scratch, timeout, env)
    result = {}
    try:
        # The driver's Module writes an empty module.conf; name the voice folder in it.
        with open(os.path.join(scratch, "module.conf"), "w") as f:
            f.write('VoiceFolder "%s"\n' % (voices if with_clips else os.path.join(scratch, "none")))
        startup, _ = handshake(m, "utter_capture")
        if with_clips is not True:
            key = "startup, no clip voice" if not with_clips else None
        else:
            key = "startup, clip voice installed"
        if key:
            result[key] = startup
        if not with_clips:
            return result
        t0 = m.send("LIST VOICES\n")
        t1, _, _ = m.reply("LIST VOICES")
        result["LIST VOICES"] = t1 - t0
        text = "<speak>" + " ".join(WORDS) + "</speak>"
        if with_clips == "espeak":
            first, whole = first_audio_and_end(m, capture, text, "English (America)", timeout)
            result["first audio, espeak-ng voice"], result["whole message, espeak-ng voice"] = first, whole
            return result
        # First audio is timed on the first message of a process only: afterwards the `file`
        # plugin's last partial period of the previous message lands with the next one's first.
        first, whole = first_audio_and_end(m, capture, text, "Bench Clips", timeout)
        result["first audio, clips first used"], result["whole message, clips first used"] = first, whole
        _, result["whole message, clips cached"] = first_audio_and_end(m, capture, text, "Bench Clips", timeout)
        every = "<speak>" + " ".join(phrase(i) for i in range(voices_count(voices))) + "</speak>"
        _, result["whole message, every clip once"] = first_audio_and_end(m, capture, every, "Bench Clips", 600)
        result["peak RSS (MiB)"] = m.vmhwm_kib() / 1024.0
        return result
    finally:
        m.close()
        shutil.rmtree(scratch, ignore_errors=True)


def voices_count(voices):
    with open(os.path.join(voices, "bench-voice", "voice.conf")) as f:
        return sum(1 for line in f if line.startswith("Clip "))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--phrases", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "sd_utter"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit("no %s: build it first (swift build -c release)" % args.binary)
    voices = tempfile.mkdtemp(prefix="utter-bench-voices-")
    try:
        t0 = time.monotonic()
        make_voice(voices, args.phrases)
        print("clip voice: %d phrases, %d files of 0.4 s, written in %.1f s" % (
            args.phrases, args.phrases, time.monotonic() - t0))
        env = {k: v for k, v in os.environ.items() if k not in ("ALSA_CONFIG_PATH",)}
        figures = {}
        for rep in range(args.reps):
            for with_clips in (False, True, "espeak"):
                for key, value in one_run(args.binary, voices, args.timeout, env, with_clips).items():
                    figures.setdefault(key, []).append(value)
        print("%-36s %12s %12s" % ("", "median", "p95"))
        for key, values in figures.items():
            scale, unit = (1, "") if key.startswith("peak") else (1000, " ms")
            print("%-36s %12s %12s" % (
                key, "%.1f%s" % (median(values) * scale, unit),
                "%.1f%s" % (percentile(values, 95) * scale, unit)))
    finally:
        shutil.rmtree(voices, ignore_errors=True)
