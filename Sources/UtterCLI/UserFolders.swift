import System
import UtterEngine

/// Where a user's speech-dispatcher and Utter keep things, by the XDG base directory rules.
struct UserFolders {
    var home: String
    var configHome: String
    var dataHome: String
    var stateHome: String
    var runtime: String?

    init() {
        let home = Environment.value("HOME") ?? "/"
        self.home = home
        func xdg(_ name: String, _ fallback: String) -> String {
            BaseDirectories.user(name, else: fallback, environment: Environment.value) ?? home + fallback
        }
        configHome = xdg("XDG_CONFIG_HOME", "/.config")
        dataHome = xdg("XDG_DATA_HOME", "/.local/share")
        stateHome = xdg("XDG_STATE_HOME", "/.local/state")
        runtime = Environment.value("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// The user's module folder: speech-dispatcher looks in `$XDG_DATA_HOME/../libexec/…`, and
    /// only when `$XDG_DATA_HOME` exists.
    var userModules: String { FileSystem.parent(of: dataHome) + "/libexec/speech-dispatcher-modules" }
    /// Where Debian's speech-dispatcher (and upstream's default build) look for modules.
    static let systemModules = ["/usr/lib/speech-dispatcher-modules", "/usr/libexec/speech-dispatcher-modules"]

    var userSpeechdConf: String { configHome + "/speech-dispatcher/speechd.conf" }
    static let systemSpeechdConf = "/etc/speech-dispatcher/speechd.conf"
    /// The one speechd.conf the user's server reads: the user's when there is one.
    var speechdConf: String { FileSystem.exists(userSpeechdConf) ? userSpeechdConf : Self.systemSpeechdConf }

    var userUtterConf: String { configHome + "/speech-dispatcher/modules/utter.conf" }
    static let systemUtterConf = "/etc/speech-dispatcher/modules/utter.conf"
    var utterConf: String { FileSystem.exists(userUtterConf) ? userUtterConf : Self.systemUtterConf }

    var keys: String { dataHome + "/utter/keys" }
    var commands: String { home + "/.local/bin" }
    var state: String { stateHome + "/utter" }
    /// speech-dispatcher writes a user's server's module logs here.
    var log: String? { runtime.map { $0 + "/speech-dispatcher/log/utter.log" } }

    /// `path` with the home folder written as `~`, for messages.
    func shown(_ path: String) -> String {
        path.hasPrefix(home + "/") && home != "/" ? "~" + path.dropFirst(home.count) : path
    }
}
