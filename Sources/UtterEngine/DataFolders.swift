/// The XDG base directory rules, in one place for the module, the voice library and `utter`.
package enum BaseDirectories {
    /// The user's folder that `variable` names when it is absolute (the specification ignores
    /// relative ones), else `fallback` under `$HOME`; nil without either.
    package static func user(_ variable: String, else fallback: String, environment: (String) -> String?) -> String? {
        if let value = environment(variable), value.hasPrefix("/") { return value }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return home + fallback
    }

    /// `subfolder` in each of the XDG data folders, the user's first: `$XDG_DATA_HOME` (else
    /// `~/.local/share`), then each of `$XDG_DATA_DIRS` (else `/usr/local/share`, `/usr/share`).
    package static func data(_ subfolder: String, environment: (String) -> String?) -> [String] {
        var folders: [String] = []
        if let dataHome = user("XDG_DATA_HOME", else: "/.local/share", environment: environment) {
            folders.append(dataHome)
        }
        let dataDirectories =
            environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += dataDirectories.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.map { "\($0)/\(subfolder)" }
    }
}
