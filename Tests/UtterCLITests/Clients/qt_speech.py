#!/usr/bin/python3
"""A Qt application's speech, as KDE's apps have it: QTextToSpeech on Qt's speechd engine.

    qt_speech.py SECONDS LOCALE[=VOICE] TEXT [LOCALE[=VOICE] TEXT ...]

For each pair: sets the locale as an application that follows the desktop's language does,
or, with =VOICE, chooses that voice among the locale's; prints the chosen voice and the
locale's voices; says TEXT and waits (at most SECONDS) until the engine is Ready again.
Prints one JSON object a line: {"engine": ...}, then per pair {"locale", "voice", "voices",
"states"}, where states are the engine's state changes during say(). Exits 1 on a timeout or
a voice that is not there, with what happened printed first.
"""
import json
import sys

from PyQt6.QtCore import QCoreApplication, QEventLoop, QLocale, QTimer
from PyQt6.QtTextToSpeech import QTextToSpeech


def say(tts, text, seconds):
    """The engine's states from say() until it is Ready again, or None on a timeout."""
    states = []
    loop = QEventLoop()

    def changed(state):
        states.append(state.name)
        if state in (QTextToSpeech.State.Ready, QTextToSpeech.State.Error):
            loop.quit()

    tts.stateChanged.connect(changed)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(int(seconds * 1000))
    tts.say(text)
    loop.exec()
    tts.stateChanged.disconnect(changed)
    return states if timer.isActive() else None


def main():
    app = QCoreApplication(sys.argv)
    seconds = float(sys.argv[1])
    pairs = sys.argv[2:]
    tts = QTextToSpeech("speechd")
    print(json.dumps({"engine": "speechd", "state": tts.state().name}), flush=True)
    failed = False
    for index in range(0, len(pairs) - 1, 2):
        locale_name, _, voice_name = pairs[index].partition("=")
        tts.setLocale(QLocale(locale_name))
        voices = [voice.name() for voice in tts.availableVoices()]
        if voice_name:
            chosen = [voice for voice in tts.availableVoices() if voice.name() == voice_name]
            if not chosen:
                print(json.dumps({"locale": locale_name, "missing": voice_name, "voices": voices}), flush=True)
                failed = True
                continue
            tts.setVoice(chosen[0])
        states = say(tts, pairs[index + 1], seconds)
        print(json.dumps({
            "locale": tts.locale().name(),
            "voice": tts.voice().name(),
            "voices": voices,
            "states": states,
        }), flush=True)
        failed = failed or states is None
    del app
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
