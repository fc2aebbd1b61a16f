import RegularFiles
import System

/// Installs Utter for one user from a build (the two programs side by side), records every step,
/// and undoes exactly those steps.
struct UserInstallation {
    let folders: UserFolders

    var recordPath: String { folders.state + "/user-install" }
    private var savedFolder: String { folders.state + "/saved" }

    /// Where the files to install come from; nil fields for a system-wide install (the Debian
    /// package), where only the user's speechd.conf may need lines.
    struct Sources {
        var command: String?
        var module: String?
        var configuration: String?
        var keys: String?

        static let systemWide = Sources()
    }

    /// The running `utter`, the `sd_utter` beside it, and the configuration and key names of the
    /// source tree it was built in (or of the system, for an installed package).
    static func sources() throws(UtterError) -> Sources {
        guard let command = CurrentProcess.executablePath else {
            throw UtterError("Cannot tell where this utter is (/proc/self/exe).")
        }
        let folder = FileSystem.parent(of: command)
        let module = folder + "/sd_utter"
        guard FileSystem.isExecutableFile(module) else {
            if UserFolders.systemModules.contains(where: { FileSystem.isExecutableFile($0 + "/sd_utter") }) {
                return .systemWide
            }
            throw UtterError(
                "sd_utter is not beside this utter (\(folder)): 'utter install --user' installs a build, such as .build/release/utter after 'swift build -c release'."
            )
        }
        var tree = folder
        while tree != "/" {
            if FileSystem.exists(tree + "/conf/utter.conf") && FileSystem.isDirectory(tree + "/conf/keys") {
                return Sources(
                    command: command, module: module, configuration: tree + "/conf/utter.conf",
                    keys: tree + "/conf/keys")
            }
            tree = FileSystem.parent(of: tree)
        }
        guard FileSystem.exists(UserFolders.systemUtterConf), FileSystem.isDirectory("/usr/share/utter/keys") else {
            throw UtterError("Cannot find conf/utter.conf and conf/keys above \(folder), nor an installed Utter package.")
        }
        return Sources(
            command: command, module: module, configuration: UserFolders.systemUtterConf, keys: "/usr/share/utter/keys")
    }

    /// Installs from `sources`: the programs, key names, utter.conf when the user has none, and
    /// the speechd.conf lines that make the server start Utter (and use it by default, if asked).
    /// Returns what it did, a line each.
    func install(
        from sources: Sources, makeDefault: Bool, languages: [String], systemVoice: Bool = false
    ) throws(UtterError) -> [String] {
        if FileSystem.exists(recordPath) { _ = try uninstall() }
        var steps = Steps(savedFolder: savedFolder)
        var done: [String] = []
        defer { try? steps.save(to: recordPath) }
        do throws(Errno) {
            try steps.folder(folders.state)
            try steps.folder(savedFolder)
            if let module = sources.module {
                // speech-dispatcher only looks in the user's module folder when $XDG_DATA_HOME exists.
                try steps.folder(folders.dataHome)
                try steps.folder(folders.userModules)
                try steps.file(folders.userModules + "/sd_utter", bytes: try FileSystem.contents(of: module), mode: 0o755)
                done.append("sd_utter → \(folders.shown(folders.userModules))/")
            } else {
                done.append("sd_utter: installed for everyone already (the utter package)")
            }
            if let command = sources.command {
                try steps.folder(folders.commands)
                try steps.file(folders.commands + "/utter", bytes: try FileSystem.contents(of: command), mode: 0o755)
                done.append("utter → \(folders.shown(folders.commands))/")
            }
            if let keys = sources.keys {
                try steps.folder(folders.keys)
                for name in try FileSystem.entries(of: keys) where name.hasSuffix(".conf") {
                    try steps.file(folders.keys + "/" + name, bytes: try FileSystem.contents(of: keys + "/" + name))
                }
                done.append("key names → \(folders.shown(folders.keys))/")
            }
            if let configuration = sources.configuration, !FileSystem.exists(folders.userUtterConf) {
                try steps.folder(FileSystem.parent(of: folders.userUtterConf))
                try steps.file(folders.userUtterConf, bytes: try FileSystem.contents(of: configuration), editable: true)
                done.append("utter.conf → \(folders.shown(folders.userUtterConf))")
            }
            let current = try FileSystem.contents(of: folders.speechdConf)
            let text = String(decoding: current, as: UTF8.self)
            if let edited = SpeechdSettings.editing(
                text, makeDefault: makeDefault, languages: languages, systemVoice: systemVoice)
            {
                try steps.folder(FileSystem.parent(of: folders.userSpeechdConf))
                try steps.file(folders.userSpeechdConf, bytes: Array(edited.utf8), editable: true)
                let before = SpeechdSettings(parsing: text)
                var what: [String] = []
                if systemVoice {
                    let others = before.addedModules.filter { $0 != "utter" }
                    what.append(
                        others.isEmpty
                            ? "AddModule utter alone (no module detected)"
                            : "AddModule utter alone (\(others.joined(separator: ", ")) off)")
                } else if !before.startsUtter {
                    what.append("AddModule")
                }
                if makeDefault || systemVoice { what.append("DefaultModule") }
                if !languages.isEmpty { what.append("LanguageDefaultModule \(languages.joined(separator: " "))") }
                done.append("\(folders.shown(folders.userSpeechdConf)): \(what.joined(separator: ", "))")
            }
        } catch {
            throw UtterError("Installing stopped: \(error). 'utter uninstall --user' takes back what was done.")
        }
        return done
    }

    /// Undoes the recorded install, newest step first. A file the user may edit and did edit
    /// since is left as it is. Returns what it did, a line each.
    func uninstall() throws(UtterError) -> [String] {
        guard FileSystem.exists(recordPath) else {
            throw UtterError("Utter is not installed for you: \(folders.shown(recordPath)) does not exist.")
        }
        guard let bytes = try? FileSystem.contents(of: recordPath),
            let record = InstallRecord(parsing: String(decoding: bytes, as: UTF8.self))
        else {
            throw UtterError("\(folders.shown(recordPath)) is damaged: remove what it lists by hand, then the file.")
        }
        try? FileSystem.removeFile(recordPath)
        var done: [String] = []
        func unchanged(_ path: String, since written: String?) -> Bool {
            guard let written else { return true }
            return (try? FileSystem.contents(of: path)) == (try? FileSystem.contents(of: written))
        }
        for step in record.steps.reversed() {
            switch step {
            case .createdFolder(let path):
                FileSystem.removeEmptyDirectory(path)
            case .createdFile(let path, let written):
                if unchanged(path, since: written) {
                    try? FileSystem.removeFile(path)
                } else {
                    done.append("\(folders.shown(path)) was changed since: left as it is")
                }
                if let written { try? FileSystem.removeFile(written) }
            case .replacedFile(let path, let saved, let written):
                if unchanged(path, since: written) {
                    do throws(Errno) {
                        try FileSystem.write(try FileSystem.contents(of: saved), to: path, mode: mode(of: path))
                        done.append("\(folders.shown(path)) restored")
                    } catch {
                        done.append("\(folders.shown(path)) could not be restored from \(saved): \(error)")
                        continue
                    }
                } else {
                    done.append("\(folders.shown(path)) was changed since: left as it is (its earlier version: \(saved))")
                    continue
                }
                try? FileSystem.removeFile(saved)
                if let written { try? FileSystem.removeFile(written) }
            }
        }
        return done
    }

    private func mode(of path: String) -> UInt32 {
        FileSystem.isExecutableFile(path) ? 0o755 : 0o644
    }
}

/// The steps of one install, recorded as they are done.
private struct Steps {
    let savedFolder: String
    var record = InstallRecord()
    private var copies = 0

    init(savedFolder: String) {
        self.savedFolder = savedFolder
    }

    mutating func folder(_ path: String) throws(Errno) {
        try check(path)
        for created in try FileSystem.createDirectories(path) { record.steps.append(.createdFolder(created)) }
    }

    /// Writes `bytes` to `path`, keeping what was there; `editable` keeps a copy of what was
    /// written too.
    mutating func file(_ path: String, bytes: [UInt8], mode: UInt32 = 0o644, editable: Bool = false) throws(Errno) {
        try check(path)
        var written: String? = nil
        if editable {
            written = try keep(bytes, as: "written")
        }
        if FileSystem.exists(path) {
            let saved = try keep(try FileSystem.contents(of: path), as: "saved")
            try FileSystem.write(bytes, to: path, mode: mode)
            record.steps.append(.replacedFile(path, saved: saved, written: written))
        } else {
            try FileSystem.write(bytes, to: path, mode: mode)
            record.steps.append(.createdFile(path, written: written))
        }
    }

    private mutating func keep(_ bytes: [UInt8], as kind: String) throws(Errno) -> String {
        copies += 1
        let path = "\(savedFolder)/\(copies).\(kind)"
        try FileSystem.write(bytes, to: path)
        return path
    }

    /// The record is one line per step: a path may not hold a tab or a line break.
    private func check(_ path: String) throws(Errno) {
        if path.contains("\t") || path.contains("\n") { throw .invalidArgument }
    }

    func save(to path: String) throws(Errno) {
        try FileSystem.write(Array(record.text.utf8), to: path)
    }
}
