import System

/// `--on-slide`: a shell command run for each slide change, `{page}` replaced by the page.
struct SlideCommand {
    let template: String

    /// The command line for `page`: the number in single quotes, so that the shell takes it as one
    /// word wherever `{page}` stands.
    func commandLine(page: Int) -> String {
        template.replacing("{page}", with: "'\(page)'")
    }

    /// Starts the command for `page` and returns at once: a slow viewer must not hold up speech.
    func start(page: Int) throws(UtterError) -> BackgroundProcess {
        do {
            return try BackgroundProcess.shell(commandLine(page: page))
        } catch {
            throw UtterError("Cannot run the slide command '\(commandLine(page: page))': \(error).")
        }
    }
}
