/// Where python3's packages are installed, as pip puts them: the user's (`~/.local`, pyenv's
/// versions) first, then the system's (`/usr/local`, Debian's `/usr/lib/python3/dist-packages`).
/// ONNX Runtime and voice packs from PyPI are found there.
public enum PythonPackages {
    /// The package folders that exist, the user's first and, in each place, the newest python first.
    public static func folders(environment: (String) -> String?) -> [String] {
        var packages: [String] = []
        if let home = environment("HOME"), !home.isEmpty {
            packages += pythonFolders(under: "\(home)/.local/lib", leaf: "site-packages")
            let pyenv = environment("PYENV_ROOT").flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.pyenv"
            for version in (try? FileSystem.subdirectories(of: "\(pyenv)/versions")) ?? [] {
                packages += pythonFolders(under: "\(pyenv)/versions/\(version)/lib", leaf: "site-packages")
            }
        }
        packages += pythonFolders(under: "/usr/local/lib", leaf: "dist-packages")
        packages += pythonFolders(under: "/usr/local/lib", leaf: "site-packages")
        if FileSystem.isDirectory("/usr/lib/python3/dist-packages") { packages.append("/usr/lib/python3/dist-packages") }
        return packages
    }

    private static func pythonFolders(under lib: String, leaf: String) -> [String] {
        let versions = ((try? FileSystem.subdirectories(of: lib)) ?? []).filter { $0.hasPrefix("python3") }
        return versions.sorted(by: >).map { "\(lib)/\($0)/\(leaf)" }.filter { FileSystem.isDirectory($0) }
    }
}
