import Testing

@testable import UtterCLI

/// What `utter install` and `utter status` read in a speechd.conf and write into it, as text.
@Suite struct SpeechdSettingsTests {
    @Test func `reads modules, defaults and the device; quoted, commented and cased as the server reads them`() {
        let settings = SpeechdSettings(
            parsing: """
                # AddModule "commented" "sd_x" "x.conf"
                AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
                addmodule "utter"     "sd_utter"     "utter.conf"
                DefaultModule espeak-ng
                LanguageDefaultModule "en" "utter"
                LanguageDefaultModule "de" "espeak-ng"
                AudioALSADevice "plughw:1"
                """)
        #expect(settings.addedModules == ["espeak-ng", "utter"])
        #expect(settings.defaultModule == "espeak-ng")
        #expect(settings.utterLanguages == ["en"])
        #expect(settings.alsaDevice == "plughw:1")
        #expect(settings.startsUtter)
        #expect(!SpeechdSettings(parsing: "AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\n").startsUtter)
        #expect(SpeechdSettings(parsing: "").startsUtter)
    }

    @Test func `editing adds only what is missing, replaces what it supersedes, and leaves the rest byte for byte`() {
        let original = "LogLevel 3\n#DefaultModule espeak-ng\nDefaultModule espeak-ng\nLanguageDefaultModule \"fr\" \"x\"\n"
        #expect(SpeechdSettings.editing(original, makeDefault: false, languages: []) == nil)
        #expect(
            SpeechdSettings.editing(original, makeDefault: true, languages: ["fr", "de"]) == """
                LogLevel 3
                #DefaultModule espeak-ng

                # Added by 'utter install --user' ('utter uninstall --user' takes it out again).
                DefaultModule utter
                LanguageDefaultModule "fr" "utter"
                LanguageDefaultModule "de" "utter"

                """)
        // Already so: nothing to do.
        let done = "DefaultModule utter\nLanguageDefaultModule \"de\" \"utter\"\n"
        #expect(SpeechdSettings.editing(done, makeDefault: true, languages: ["de"]) == nil)
        // AddModule lines that hide Utter get Utter's, once.
        let hiding = "AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\""
        let edited = SpeechdSettings.editing(hiding, makeDefault: false, languages: [])
        #expect(edited == hiding + "\n\n# Added by 'utter install --user' ('utter uninstall --user' takes it out again).\n"
            + "AddModule \"utter\" \"sd_utter\" \"utter.conf\"\n")
        #expect(SpeechdSettings.editing(edited ?? "", makeDefault: false, languages: []) == nil)
    }

    @Test func `as the system voice Utter is the one module added, and the lines naming others are turned off`() {
        let prefix = SpeechdSettings.turnedOffPrefix
        // Debian's own speechd.conf: modules detected, none added, none the default.
        let detecting = "LogLevel 3\n#AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\n#DefaultModule espeak-ng\n"
        let fromDetecting = SpeechdSettings.editing(detecting, makeDefault: false, languages: [], systemVoice: true)
        #expect(
            fromDetecting == detecting + """

                # Added by 'utter install --user' ('utter uninstall --user' takes it out again).
                AddModule "utter" "sd_utter" "utter.conf"
                DefaultModule utter

                """)
        #expect(SpeechdSettings(parsing: fromDetecting ?? "").utterIsSystemVoice)
        #expect(!SpeechdSettings(parsing: detecting).utterIsSystemVoice)
        // A user's own modules: theirs turned off, kept for the reader; Utter's language lines kept.
        let own = """
            AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
            AddModule "utter" "sd_utter" "utter.conf"
            DefaultModule espeak-ng
            LanguageDefaultModule "de" "espeak-ng"
            LanguageDefaultModule "en" "utter"
            """
        let fromOwn = SpeechdSettings.editing(own, makeDefault: false, languages: [], systemVoice: true)
        #expect(
            fromOwn == """
                \(prefix)AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
                AddModule "utter" "sd_utter" "utter.conf"
                \(prefix)LanguageDefaultModule "de" "espeak-ng"
                LanguageDefaultModule "en" "utter"

                # Added by 'utter install --user' ('utter uninstall --user' takes it out again).
                DefaultModule utter

                """)
        let settings = SpeechdSettings(parsing: fromOwn ?? "")
        #expect(settings.addedModules == ["utter"] && settings.defaultModule == "utter")
        #expect(settings.languageModules.map(\.module) == ["utter"])
        // Done once, nothing is left to do.
        #expect(SpeechdSettings.editing(fromOwn ?? "", makeDefault: true, languages: [], systemVoice: true) == nil)
        // Only lines to turn off: the file changes, with nothing added.
        let onlyOthers = "AddModule \"utter\" \"sd_utter\" \"utter.conf\"\nDefaultModule utter\nLanguageDefaultModule \"fr\" \"x\"\n"
        #expect(
            SpeechdSettings.editing(onlyOthers, makeDefault: false, languages: [], systemVoice: true)
                == "AddModule \"utter\" \"sd_utter\" \"utter.conf\"\nDefaultModule utter\n\(prefix)LanguageDefaultModule \"fr\" \"x\"\n")
    }

    @Test func `the install record reads back what it wrote, and refuses a damaged one`() {
        let record = InstallRecord(steps: [
            .createdFolder("/h/.local/state/utter"),
            .createdFile("/h/.local/bin/utter", written: nil),
            .createdFile("/h/.config/speech-dispatcher/modules/utter.conf", written: "/h/.local/state/utter/saved/1.written"),
            .replacedFile("/h/.config/speech-dispatcher/speechd.conf", saved: "/s/2.saved", written: "/s/3.written"),
            .replacedFile("/h/.local/libexec/speech-dispatcher-modules/sd_utter", saved: "/s/4.saved", written: nil),
        ])
        #expect(InstallRecord(parsing: record.text) == record)
        #expect(InstallRecord(parsing: "file\t/only/two/fields\n") == nil)
        #expect(InstallRecord(parsing: "moved\t/a\t/b\n") == nil)
        #expect(InstallRecord(parsing: "") == InstallRecord())
    }
}
