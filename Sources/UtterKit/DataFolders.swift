/// `subfolder` in each of the XDG data folders, the user's first: `$XDG_DATA_HOME` (else
/// `~/.local/share`), then each of `$XDG_DATA_DIRS` (else `/usr/local/share`, `/usr/share`).
func standardDataFolders(_ subfolder: String, environment: (String) -> String?) -> [String] {
    var folders: [String] = []
    if let dataHome = environment("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
        folders.append(dataHome)
    } else if let home = environment("HOME"), home.hasPrefix("/") {
        folders.append(home + "/.local/share")
    }
    let dataDirectories =
        environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
    folders += dataDirectories.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    return folders.map { "\($0)/\(subfolder)" }
}
