internal import System

/// A MeCab dictionary in the IPA dictionary's format, which gives each morpheme's pronunciation.
public struct JapaneseDictionary: Equatable, Sendable {
    /// The folder holding `dicrc`, `sys.dic`, `unk.dic`, `matrix.bin` and `char.bin`.
    public var path: String
    /// The Debian package it comes from, when it is a known one.
    public var package: String?

    public init(path: String, package: String? = nil) {
        self.path = path
        self.package = package
    }

    /// Debian's UTF-8 IPA dictionary (`mecab-ipadic-utf8`). naist-jdic from
    /// `open-jtalk-mecab-naist-jdic` has the same features but no `dicrc`, so MeCab cannot open it
    /// as installed, and is twice the size (103 MB against 49 MB) for the same readings here.
    public static let ipadicUTF8 = JapaneseDictionary(
        path: "/var/lib/mecab/dic/ipadic-utf8", package: "mecab-ipadic-utf8")

    /// The dictionaries looked for, in order of preference.
    public static let known: [JapaneseDictionary] = [ipadicUTF8]

    /// The command that installs the preferred dictionary.
    public static let installCommand = "sudo apt install mecab-ipadic-utf8"

    /// The first known dictionary installed, or nil.
    public static func installed() -> JapaneseDictionary? {
        known.first(where: \.isInstalled)
    }

    /// Whether the folder has the files MeCab opens.
    public var isInstalled: Bool {
        ["dicrc", "sys.dic", "unk.dic", "matrix.bin", "char.bin"].allSatisfy {
            FileSystem.isRegularFile(path + "/" + $0)
        }
    }
}
