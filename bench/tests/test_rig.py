"""What a rig gives its processes, and what it says when a step fails."""

import os
import shutil
import site
import subprocess
import sys
import tempfile
import unittest

from utterbench.neural_server import generic_module_conf
from utterbench.rig import Rig, failure_report, rig_environment, tail


class EnvironmentTests(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="utter-bench-test-")
        self.addCleanup(shutil.rmtree, self.home, ignore_errors=True)

    def test_the_user_sound_server_and_speech_dispatcher_are_out_of_reach(self):
        base = {"PATH": "/usr/bin", "PULSE_SERVER": "unix:/x", "PULSE_SINK": "s", "SPEECHD_ADDRESS": "a",
                "ALSA_CONFIG_PATH": "/c", "HOME": "/root"}
        env = rig_environment(base, self.home, self.home + "/rt", "/root/.local")
        self.assertEqual(env["PATH"], "/usr/bin")
        self.assertEqual(env["HOME"], self.home)
        self.assertEqual(env["XDG_RUNTIME_DIR"], self.home + "/rt")
        self.assertEqual(env["XDG_CONFIG_HOME"], self.home + "/.config")
        for name in ("PULSE_SERVER", "PULSE_SINK", "SPEECHD_ADDRESS", "ALSA_CONFIG_PATH"):
            self.assertNotIn(name, env)
        self.assertEqual(base["HOME"], "/root")  # the caller's dictionary is left as it was

    def test_the_user_python_packages_are_named_and_a_base_already_named_is_kept(self):
        self.assertEqual(rig_environment({}, self.home, self.home, "/root/.local")["PYTHONUSERBASE"], "/root/.local")
        kept = rig_environment({"PYTHONUSERBASE": "/opt/user"}, self.home, self.home, "/root/.local")
        self.assertEqual(kept["PYTHONUSERBASE"], "/opt/user")

    def test_a_python_in_the_private_home_finds_the_user_site_packages(self):
        ask = [sys.executable, "-c", "import site; print(site.getusersitepackages())"]
        env = rig_environment(os.environ, self.home, self.home, site.getuserbase())
        found = subprocess.run(ask, env=env, capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(found, site.getusersitepackages())
        # Without the base, the private HOME hides them: what made a user's piper fail there.
        env.pop("PYTHONUSERBASE")
        hidden = subprocess.run(ask, env=env, capture_output=True, text=True, check=True).stdout.strip()
        self.assertTrue(hidden.startswith(self.home), hidden)


class FailureTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="utter-bench-test-")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def write(self, path, lines):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("".join(line + "\n" for line in lines))

    def test_tail_keeps_the_last_lines_less_the_ones_left_out(self):
        path = os.path.join(self.dir, "log")
        self.write(path, ["one", "two noise", "three", "four"])
        self.assertEqual(tail(path, 2), ["three", "four"])
        self.assertEqual(tail(path, 3, leave_out=("noise",)), ["one", "three", "four"])
        self.assertIsNone(tail(os.path.join(self.dir, "missing"), 5))

    def test_the_report_names_the_rig_the_phase_and_the_error_then_each_log(self):
        report = failure_report(
            "sd_generic+piper", "/usr/lib/speech-dispatcher-modules/sd_generic", "warm-up",
            "no audible sample for 30.0 s (first audible sample)", "/tmp/rig",
            [("run/log/bench.log", ["started", "child exited"]), ("server.out", [])])
        self.assertEqual(report, "\n".join([
            "FAILED sd_generic+piper (module /usr/lib/speech-dispatcher-modules/sd_generic), warm-up: "
            "no audible sample for 30.0 s (first audible sample)",
            "  scratch folder: /tmp/rig",
            "----- run/log/bench.log: last 2 lines",
            "  started",
            "  child exited",
            "----- server.out: empty",
        ]))

    def test_a_rig_shows_its_module_log_and_what_its_commands_wrote(self):
        rig = Rig.__new__(Rig)  # the files of a rig, without its processes
        rig.label, rig.binary, rig.dir = "sd_generic+piper", "/usr/lib/sd_generic", self.dir
        rig.logdir = os.path.join(self.dir, "run/log")
        elsewhere = tempfile.mkdtemp(prefix="utter-bench-test-")  # as neural-server's scratch folder
        self.addCleanup(shutil.rmtree, elsewhere, ignore_errors=True)
        commands = os.path.join(elsewhere, "commands.log")
        rig.command_logs = [commands]
        self.write(os.path.join(rig.logdir, "bench.log"), ["line %d" % i for i in range(60)])
        self.write(os.path.join(self.dir, "server.out"), ["server started"])
        self.write(commands, ["Traceback (most recent call last):", "ModuleNotFoundError: No module named 'piper'"])
        report = rig.failure("rep 2, a word", "no audible sample for 30.0 s (first audible sample)")
        lines = report.splitlines()
        self.assertEqual(lines[0], "FAILED sd_generic+piper (module /usr/lib/sd_generic), rep 2, a word: "
                                   "no audible sample for 30.0 s (first audible sample)")
        self.assertIn("----- run/log/bench.log: last 40 lines", lines)
        self.assertIn("  line 59", lines)
        self.assertNotIn("  line 19", lines)
        self.assertIn("----- server.out: last 1 lines", lines)
        self.assertNotIn("pulseaudio.log", report)  # none was written
        self.assertEqual(lines[-2:], ["  Traceback (most recent call last):",
                                      "  ModuleNotFoundError: No module named 'piper'"])
        self.assertIn("----- %s: last 2 lines" % commands, lines)


class GenericConfTests(unittest.TestCase):
    def test_piper_and_aplay_write_their_errors_to_the_commands_log(self):
        conf = generic_module_conf("/root/.local/bin/piper", "/v/joe.onnx", 22050, "/tmp/s/commands.log")
        self.assertEqual(conf, (
            "GenericExecuteSynth \"echo \\'$DATA\\' | /root/.local/bin/piper --model /v/joe.onnx --output-raw"
            " 2>>/tmp/s/commands.log | aplay -q -r 22050 -f S16_LE -t raw - 2>>/tmp/s/commands.log\"\n"
            "AddVoice \"en-US\" \"MALE1\" \"joe\"\n"))


if __name__ == "__main__":
    unittest.main()
