"""Private sound servers with one paced null sink, `utter_null` (22050 Hz mono), each in a runtime
folder of its own: nothing reaches or is reached by anyone else's sound server on the machine."""

import os
import subprocess

from .analysis import RATE
from .processes import BenchError, spawn, wait_until

SINK = "utter_null"


def start_pulseaudio(env, socket, logpath, timeout):
    """A PulseAudio daemon (no configuration read, no shared memory) serving the null sink on the
    unix socket `socket` to anyone (auth-anonymous); started through spawn(), ended by PID."""
    p = spawn(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
         "--disable-shm=yes",
         "-L", "module-null-sink sink_name=%s rate=%d channels=1" % (SINK, RATE),
         "-L", "module-native-protocol-unix auth-anonymous=1 socket=" + socket],
        env, logpath)
    wait_until(lambda: os.path.exists(socket) or p.poll() is not None, timeout, "PulseAudio socket")
    if p.poll() is not None:
        raise BenchError("pulseaudio exited: %s (see %s)" % (p.returncode, logpath))
    return p


def start_pipewire(home, runtime, env, timeout):
    """PipeWire as Debian 12's GNOME runs it: pipewire, WirePlumber and pipewire-pulse, on a
    D-Bus session of their own, with the null sink in PipeWire's own configuration. `home` holds
    the configuration and the logs, `runtime` the sockets; env gains what their clients need.
    Returns (every daemon started, the pipewire-pulse process, its native socket)."""
    dropin = os.path.join(home, ".config/pipewire/pipewire.conf.d")
    os.makedirs(dropin)
    with open(os.path.join(dropin, "utter-null.conf"), "w") as f:
        f.write("context.objects = [ { factory = adapter args = { factory.name = support.null-audio-sink"
                " node.name = %s media.class = Audio/Sink audio.position = [ MONO ]"
                " object.linger = true priority.session = 2000 } } ]\n" % SINK)
    bus = os.path.join(runtime, "bus")
    env.update(DBUS_SESSION_BUS_ADDRESS="unix:path=" + bus, PIPEWIRE_RUNTIME_DIR=runtime,
               XDG_STATE_HOME=os.path.join(home, ".local/state"))
    socket = os.path.join(runtime, "pulse", "native")
    log_of = lambda name: os.path.join(home, name + ".log")
    daemons = [spawn(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                      "--address=unix:path=" + bus], env, log_of("dbus"))]
    wait_until(lambda: os.path.exists(bus), timeout, "D-Bus socket")
    daemons.append(spawn(["pipewire"], env, log_of("pipewire")))
    wait_until(lambda: os.path.exists(os.path.join(runtime, "pipewire-0")), timeout, "PipeWire socket")
    daemons.append(spawn(["wireplumber"], env, log_of("wireplumber")))
    pulse = spawn(["pipewire", "-c", "pipewire-pulse.conf"], env, log_of("pipewire-pulse"))
    daemons.append(pulse)
    wait_until(lambda: os.path.exists(socket), timeout, "pipewire-pulse socket")

    def default_sink():
        out = subprocess.run(["pactl", "--server=unix:" + socket, "info"], env=env,
                             capture_output=True, text=True).stdout
        return "Default Sink: %s" % SINK in out
    wait_until(default_sink, timeout, "WirePlumber's default sink")
    quantum = os.environ.get("UTTER_BENCH_QUANTUM")
    if quantum:
        # The graph's quantum as on a desktop where nothing asks for less than PipeWire's default:
        # the rig's own recorder (5 ms) would otherwise set it.
        subprocess.run(["pw-metadata", "-n", "settings", "0", "clock.force-quantum", quantum], env=env,
                       capture_output=True, check=True)
    return daemons, pulse, socket


def capture_device(paced, top, timeout):
    """The ALSA configuration of bench/run's device `utter_capture` (the `file` plugin writing
    @CAPTURE@, over `null`, or with `paced` over a private PulseAudio null sink started in `top`),
    and that PulseAudio (None when not paced), which the caller stops."""
    pulse = None
    if paced:
        rt = os.path.join(top, "pulse-rt")
        os.makedirs(rt, mode=0o700)
        socket = os.path.join(rt, "native")
        pulse = start_pulseaudio(dict(os.environ, HOME=top, XDG_RUNTIME_DIR=rt), socket,
                                 os.path.join(top, "pulseaudio.log"), timeout)
        sink = 'pcm.utter_sink { type pulse server "unix:%s" device "%s" }\n' % (socket, SINK)
    else:
        sink = "pcm.utter_sink { type null }\n"
    conf = ('pcm.utter_capture { type file slave.pcm "utter_sink" file "@CAPTURE@" '
            'format "raw" }\n' + sink)
    return conf, pulse
