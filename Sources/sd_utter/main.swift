import Logging
import System
import UtterKit
import UtterModule

// speech-dispatcher starts `sd_utter CONFIG` and speaks the module protocol on stdin/stdout.
if CommandLine.arguments.dropFirst().first == "--version" {
    print("sd_utter (Utter) \(UtterVersion.current)")
    CurrentProcess.exit(0)
}
CurrentProcess.ignoreBrokenPipe()
let logSink = LogSink(level: .notice)
let server = ModuleServer(configurationPath: CommandLine.arguments.dropFirst().first, logSink: logSink)
let status = server.run()
if server.leavesThreadsRunning { CurrentProcess.exitNow(status) }
CurrentProcess.exit(status)
