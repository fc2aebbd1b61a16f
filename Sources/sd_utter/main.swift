import Logging
import System
import UtterModule

// speech-dispatcher starts `sd_utter CONFIG` and speaks the module protocol on stdin/stdout.
CurrentProcess.ignoreBrokenPipe()
let logSink = LogSink(level: .notice)
let server = ModuleServer(configurationPath: CommandLine.arguments.dropFirst().first, logSink: logSink)
let status = server.run()
if server.leavesThreadsRunning { CurrentProcess.exitNow(status) }
CurrentProcess.exit(status)
