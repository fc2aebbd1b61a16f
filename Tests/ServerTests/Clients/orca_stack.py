#!/usr/bin/python3
"""The Orca end-to-end stack for OrcaTests, run inside its own PID namespace
(`unshare --pid --fork --mount-proc --kill-child`, so that no other Orca on the
machine is seen or touched, and everything started here dies with it):

Xvfb, a private D-Bus session bus, AT-SPI, a private speech-dispatcher whose
only module is MODULE, a GTK window (orca_window.py) and the real Orca. Then it
acts as a user with xdotool and waits, each time with its own deadline, until
what Orca should say reaches the module (read from speech-dispatcher's log of
the commands it sends to the module).

Usage: orca_stack.py FOLDER MODULE [VOICE MODEL ONNXRUNTIME]
With a VOICE: the Piper voice MODEL is installed under that name in the user's voice folder,
the module runs it on the ONNX Runtime library ONNXRUNTIME, and Orca's settings choose it.
Output lines: `step <name> ok <seconds>`, `said <text>` (every SPEAK the module
got, markup removed), `error <text>` (then exit 2), `done`.
"""

import json
import os
import re
import subprocess
import sys
import time

FOLDER, MODULE = sys.argv[1], sys.argv[2]
VOICE, MODEL, ONNXRUNTIME = (sys.argv[3:6] + [None, None, None])[:3]
HERE = os.path.dirname(os.path.abspath(__file__))
SENTENCES = [
    "The first sentence of the story is short.",
    "Then a second one follows it closely.",
    "A third sentence keeps the reader going.",
    "Finally the closing sentence ends the story.",
]
processes = []


def fail(text):
    print("error " + text, flush=True)
    sys.stdout.flush()
    os._exit(2)  # the namespace's other processes die with this one


def start(argv, log, **kw):
    out = open(os.path.join(FOLDER, log), "wb")
    p = subprocess.Popen(argv, stdout=kw.pop("stdout", out), stderr=out, env=env, **kw)
    processes.append(p)
    return p


def wait_until(what, deadline, condition):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        for p in processes:
            if p.poll() is not None and getattr(p, "essential", False):
                fail("%s exited with status %s while waiting for %s" % (p.args[0], p.returncode, what))
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    fail("timed out after %d s waiting for %s" % (deadline, what))


def messages():
    """(kind, text) of every message speech-dispatcher sent the module, in order; SPEAK text
    with its markup removed."""
    try:
        with open(os.path.join(FOLDER, "log", "speech-dispatcher.log"), encoding="utf-8", errors="replace") as f:
            log = f.read()
    except OSError:
        return []
    commands = re.findall(r"Command sent to output module: \|(.*?)\| \(\d+\)", log, re.DOTALL)
    result = []
    for index, command in enumerate(commands):
        kind = command.strip()
        if kind in ("SPEAK", "CHAR", "KEY", "SOUND_ICON") and index + 1 < len(commands):
            text = commands[index + 1]
            if kind == "SPEAK":
                text = re.sub(r"<[^>]*>", " ", text)
            result.append((kind, " ".join(text.split())))
    return result


def module_ends():
    """How many END events the module has sent the server."""
    try:
        with open(os.path.join(FOLDER, "log", "speech-dispatcher.log"), encoding="utf-8", errors="replace") as f:
            return f.read().count("Event from output module while speaking: |702 END")
    except OSError:
        return 0


def spoken():
    return [text for (_, text) in messages()]


def said(text, after=0):
    return any(text in t for t in spoken()[after:])


def step(name, started):
    print("step %s ok %.2f" % (name, time.monotonic() - started), flush=True)


def xdotool(*args):
    subprocess.run(["xdotool"] + list(args), env=env, check=True, timeout=10)


os.makedirs(os.path.join(FOLDER, "conf", "modules"), exist_ok=True)
os.makedirs(os.path.join(FOLDER, "log"), exist_ok=True)
for d in ("home", "xdg"):
    os.makedirs(os.path.join(FOLDER, d), mode=0o700, exist_ok=True)
env = {
    "PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
    "HOME": os.path.join(FOLDER, "home"),
    "XDG_RUNTIME_DIR": os.path.join(FOLDER, "xdg"),
    "XDG_CONFIG_HOME": os.path.join(FOLDER, "home", ".config"),
    "XDG_DATA_HOME": os.path.join(FOLDER, "home", ".local", "share"),
    "XDG_CACHE_HOME": os.path.join(FOLDER, "home", ".cache"),
    "LANG": "C.UTF-8",
    "GSETTINGS_BACKEND": "memory",
    "NO_AT_BRIDGE": "0",
}
# The module's audio: an ALSA file device (every sample lands in capture.raw) in front of ALSA's
# pulse plugin into a private PulseAudio null sink, so playback takes real time as on a desktop.
# (Unpaced, a sentence ends within milliseconds, before python3-speechd in Orca has registered
# its callbacks for the message: Orca then misses END and Say All stops.)
pulse_dir = os.path.join(FOLDER, "pulse")
os.makedirs(pulse_dir, mode=0o700, exist_ok=True)
pulse_socket = os.path.join(pulse_dir, "native")
with open(os.path.join(env["HOME"], ".asoundrc"), "w") as f:
    f.write('pcm.!default { type file slave.pcm "utter_sink" file "%s/capture.raw" format "raw" }\n'
            'pcm.utter_sink { type pulse server "unix:%s" device "utter_null" }\n' % (FOLDER, pulse_socket))
with open(os.path.join(FOLDER, "conf", "speechd.conf"), "w") as f:
    f.write('AddModule "utter" "%s" "utter.conf"\nDefaultModule utter\n'
            'AudioOutputMethod "alsa"\nAudioALSADevice "default"\n' % MODULE)
with open(os.path.join(FOLDER, "conf", "modules", "utter.conf"), "w") as f:
    f.write("LogLevel 5\nKeyNamesFolder \"%s\"\n" % os.path.join(HERE, "..", "..", "..", "conf", "keys"))
    if VOICE:
        # The default voice's model loads at INIT, long before Orca's first words.
        f.write("DefaultVoice \"%s\"\nOnnxRuntimeLibrary \"%s\"\nNeuralThreads 2\n" % (VOICE, ONNXRUNTIME))
if VOICE:
    # Where `utter voice add` puts a voice, and Orca's own settings choosing it (its family name is
    # what Orca sends as the synthesis voice).
    voice_dir = os.path.join(env["XDG_DATA_HOME"], "utter", "voices", VOICE)
    os.makedirs(voice_dir)
    os.symlink(MODEL, os.path.join(voice_dir, os.path.basename(MODEL)))
    os.symlink(MODEL + ".json", os.path.join(voice_dir, os.path.basename(MODEL) + ".json"))
    orca_dir = os.path.join(env["XDG_DATA_HOME"], "orca")
    os.makedirs(orca_dir)
    default = ["Default", "default"]
    with open(os.path.join(orca_dir, "user-settings.conf"), "w") as f:
        json.dump({
            "general": {"startingProfile": default, "firstStart": False},
            "pronunciations": {}, "keybindings": {},
            "profiles": {"default": {
                "profile": default,
                "voices": {"default": {"established": True, "family": {"name": VOICE, "lang": "en", "dialect": "us"}}},
            }},
        }, f)

started = time.monotonic()
start(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
       "-L", "module-null-sink sink_name=utter_null rate=22050 channels=1",
       "-L", "module-native-protocol-unix auth-anonymous=1 socket=%s" % pulse_socket],
      "pulseaudio.log", ).essential = True
wait_until("PulseAudio's socket", 20, lambda: os.path.exists(pulse_socket))
read_display, write_display = os.pipe()
xvfb = start(["Xvfb", "-displayfd", str(write_display), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
             "xvfb.log", pass_fds=(write_display,))
xvfb.essential = True
os.close(write_display)
display = wait_until("Xvfb's display number", 20, lambda: os.read(read_display, 16).strip())
env["DISPLAY"] = ":" + display.decode()

read_bus, write_bus = os.pipe()
bus = start(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=%d" % write_bus],
            "dbus.log", pass_fds=(write_bus,))
bus.essential = True
os.close(write_bus)
env["DBUS_SESSION_BUS_ADDRESS"] = wait_until("the session bus", 20, lambda: os.read(read_bus, 4096).decode().strip())
start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], "atspi.log").essential = True

socket = os.path.join(FOLDER, "speechd.sock")
start(["speech-dispatcher", "-s", "-t", "0", "-C", os.path.join(FOLDER, "conf"), "-c", "unix_socket", "-S", socket,
       "-L", os.path.join(FOLDER, "log"), "-P", os.path.join(FOLDER, "speechd.pid"), "-l", "5"],
      "speechd.out").essential = True
wait_until("speech-dispatcher's socket", 20, lambda: os.path.exists(socket))
env["SPEECHD_ADDRESS"] = "unix_socket:" + socket
env["SPEECHD_CMD"] = "/bin/false"  # never autospawn another server
step("stack", started)

window_out = os.path.join(FOLDER, "window.out")
window = start(["/usr/bin/python3", os.path.join(HERE, "orca_window.py")] + SENTENCES, "window.err",
               stdout=open(window_out, "wb"))
window.essential = True
wait_until("the GTK window", 30, lambda: "ready" in open(window_out).read())

started = time.monotonic()
start(["orca", "--debug-file", os.path.join(FOLDER, "orca.debug")], "orca.out").essential = True
wait_until("Orca's first words", 60, lambda: len(spoken()) > 0)
# Orca announces the focused window and the first button once it has found them.
wait_until("the focused button (Marigold)", 30, lambda: said("Marigold"))
step("orca-started", started)

def press(keys, what, text):
    """Presses `keys` and waits until the module is given `text` (after what it had before)."""
    before = len(spoken())
    xdotool("key", keys)
    wait_until(what, 20, lambda: said(text, before))


started = time.monotonic()
press("Tab", "focus to move to the Tangerine button", "Tangerine button")
step("focus", started)

started = time.monotonic()
press("Tab", "focus on the typing field", "Typing field")
mark = len(spoken())
xdotool("type", "--delay", "300", "xq")
wait_until("the typed x and q echoed", 20, lambda: [t for t in spoken()[mark:] if t in ("x", "q")][:2] == ["x", "q"])
press("BackSpace", "BackSpace echoed", "backspace")
step("echo", started)

started = time.monotonic()
press("Tab", "focus on the story", "Story text")
xdotool("key", "ctrl+Home")
time.sleep(0.5)
mark = len(spoken())
xdotool("key", "KP_Add")
wait_until("Say All to reach the last sentence", 60, lambda: said(SENTENCES[-1].split()[0] + " the closing", mark))
ends = module_ends()
wait_until("the last sentence to be heard to its end", 30, lambda: module_ends() > ends)
texts = spoken()[mark:]
positions = []
for sentence in SENTENCES:
    found = [i for i, t in enumerate(texts) if sentence.rstrip(".") in t]
    if not found:
        fail("Say All skipped %r; it said %r" % (sentence, texts))
    positions.append(found[0])
if positions != sorted(positions):
    fail("Say All read the sentences out of order: %r" % texts)
step("sayall", started)

# Reading by character: Orca names the character the caret moves onto ("h" of "The").
started = time.monotonic()
xdotool("key", "ctrl+Home")
wait_until("the caret at the start of the story", 20, lambda: len(spoken()) > mark)
mark = len(spoken())
xdotool("key", "Right")
wait_until("the character h named", 20, lambda: "h" in spoken()[mark:])
step("characters", started)

for (kind, text) in messages():
    print("said %s %s" % (kind, text), flush=True)
print("done", flush=True)
# Orca first, then the server (which stops its module), then what they ran on, each given time to
# exit, so that nothing is cut off under a process still using it.
for p in reversed(processes):
    p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
