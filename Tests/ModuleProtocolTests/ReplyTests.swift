import ModuleProtocol
import Testing

@Test func `replies are encoded byte for byte`() {
    #expect(
        Reply.initialized(details: ["Utter: 2 voices ready."]).encoded
            == "299-Utter: 2 voices ready.\n299 OK LOADED SUCCESSFULLY\n")
    #expect(Reply.initializationFailed(reason: "no data").encoded == "399-no data\n399 ERR CANT INIT MODULE\n")
    #expect(Reply.audioRefused(reason: "own audio").encoded == "300-own audio\n300 MODULE ERROR\n")
    #expect(Reply.receivingAudioSettings.encoded == "207 OK RECEIVING AUDIO SETTINGS\n")
    #expect(Reply.audioInitialized.encoded == "203 OK AUDIO INITIALIZED\n")
    #expect(Reply.receivingLogLevel.encoded == "207 OK RECEIVING LOGLEVEL SETTINGS\n")
    #expect(Reply.logLevelSet.encoded == "203 OK LOGLEVEL SET\n")
    #expect(Reply.receivingSettings.encoded == "203 OK RECEIVING SETTINGS\n")
    #expect(Reply.settingsReceived.encoded == "203 OK SETTINGS RECEIVED\n")
    #expect(Reply.receivingMessage.encoded == "202 OK RECEIVING MESSAGE\n")
    #expect(Reply.speaking.encoded == "200 OK SPEAKING\n")
    #expect(Reply.cannotSpeak.encoded == "301 ERROR CANT SPEAK\n")
    #expect(Reply.dataMoreThanOneLine.encoded == "305 DATA MORE THAN ONE LINE\n")
    #expect(Reply.debuggingOn.encoded == "200 OK DEBUGGING ON\n")
    #expect(Reply.debuggingOff.encoded == "200 OK DEBUGGING OFF\n")
    #expect(Reply.cannotOpenDebugFile.encoded == "303 CANT OPEN CUSTOM DEBUG FILE\n")
    #expect(Reply.cannotListVoices.encoded == "304 CANT LIST VOICES\n")
    #expect(Reply.quitting.encoded == "210 OK QUIT\n")
    #expect(Reply.unknownCommand.encoded == "300 ERR UNKNOWN COMMAND\n")
}

@Test func `the voice list has one tab-separated line per entry`() {
    let reply = Reply.voiceList([
        VoiceListEntry(name: "English (America)", language: "en-US"),
        VoiceListEntry(name: "Bad\tname\n", language: "", variant: "x"),
    ])
    #expect(reply.encoded == "200-English (America)\ten-US\tnone\n200-Bad name \tnone\tx\n200 OK VOICE LIST SENT\n")
}

@Test func `events are encoded byte for byte and a mark name cannot break a line`() {
    #expect(Event.begin.encoded == "701 BEGIN\n")
    #expect(Event.indexMark("__spd_3").encoded == "700-__spd_3\n700 INDEX MARK\n")
    #expect(Event.indexMark("a\nb").encoded == "700-a b\n700 INDEX MARK\n")
    #expect(Event.end.encoded == "702 END\n")
    #expect(Event.stopped.encoded == "703 STOP\n")
    #expect(Event.paused.encoded == "704 PAUSE\n")
}

@Test func `SET values are typed, clamped and never refused`() {
    var settings = SpeechSettings()
    let problems = settings.apply(
        SettingsBlock(
            settings: [
                Setting(name: "rate", value: "250"), Setting(name: "pitch", value: "-20"),
                Setting(name: "volume", value: "loud"), Setting(name: "punctuation_mode", value: "some"),
                Setting(name: "spelling_mode", value: "on"), Setting(name: "cap_let_recogn", value: "spell"),
                Setting(name: "voice", value: "FEMALE2"), Setting(name: "language", value: "de-de"),
                Setting(name: "synthesis_voice", value: "NULL"), Setting(name: "frobnicate", value: "1"),
            ], malformedLines: ["junk"]))
    #expect(settings.rate == 100)
    #expect(settings.pitch == -20)
    #expect(settings.volume == 100)
    #expect(settings.punctuation == .some)
    #expect(settings.spelling)
    #expect(settings.capitalLetters == .spell)
    #expect(settings.voiceType == .female2)
    #expect(settings.language == "de-de")
    #expect(settings.synthesisVoice == nil)
    #expect(problems.count == 4)
}

@Test func `a SET without a voice line clears the voice type`() {
    var settings = SpeechSettings()
    _ = settings.apply(SettingsBlock(settings: [Setting(name: "voice", value: "male2")]))
    #expect(settings.voiceType == .male2)
    _ = settings.apply(SettingsBlock(settings: [Setting(name: "synthesis_voice", value: "Czech")]))
    #expect(settings.voiceType == nil)
    #expect(settings.synthesisVoice == "Czech")
}
