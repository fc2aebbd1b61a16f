import ArgumentParser

extension UtterCommand {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell whether Utter works with your speech-dispatcher, and if not, why and what to do.",
            discussion: """
                Looks at where sd_utter is installed, whether your speechd.conf lets speech-dispatcher \
                start it and makes it the default, which clients speak with it (the default module \
                reaches Orca, spd-say and Firefox; Chromium and Qt applications need it to be the only \
                module loaded), whether your speech-dispatcher runs and lists it, \
                whether Utter's audio device opens, and the last errors in utter.log. Each problem comes \
                with its fix. The exit status is 1 when there is a problem.
                """)

        @Flag(help: "Also have speech-dispatcher speak a test sentence with Utter (starting it if needed).")
        var speak = false

        @Flag(help: "Print the report as JSON, for scripts.")
        var json = false

        func run() throws {
            let report = StatusReport(folders: UserFolders(), speak: speak)
            print(json ? report.json : report.text, terminator: "")
            if report.problemCount > 0 { throw ExitCode(1) }
        }
    }
}
