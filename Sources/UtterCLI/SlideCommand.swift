import System

/// `--on-slide`: a shell command run for each slide change, `{page}` replaced by the slide's number
/// counted from 1 (as viewers number pages) and `{index}` by its page index counted from 0 (as the
/// scenario's `page` does).
struct SlideCommand {
    let template: String

    /// The command line for the slide at page `index`: each number in single quotes, so that the
    /// shell takes it as one word wherever it stands.
    func commandLine(index: Int) -> String {
        template.replacing("{page}", with: "'\(index + 1)'").replacing("{index}", with: "'\(index)'")
    }

    /// Starts the command for the slide at page `index` and returns at once: a slow viewer must not
    /// hold up speech.
    func start(index: Int) throws(UtterError) -> BackgroundProcess {
        do {
            return try BackgroundProcess.shell(commandLine(index: index))
        } catch {
            throw UtterError("Cannot run the slide command '\(commandLine(index: index))': \(error).")
        }
    }
}
