import Glibc
import Logging
import UtterModule

// speech-dispatcher starts `sd_utter CONFIG` and speaks the module protocol on stdin/stdout.
signal(SIGPIPE, SIG_IGN)
let logSink = LogSink(level: .notice)
let server = ModuleServer(configurationPath: CommandLine.arguments.dropFirst().first, logSink: logSink)
let status = server.run()
if server.leavesThreadsRunning { _exit(status) }
exit(status)
