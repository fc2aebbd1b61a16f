import Configuration
import System
package import Logging
import RegularFiles
import Synchronization
package import Voices

/// Words that depend on the message language: key names from Utter's tables, names of symbols
/// and emoji from speech-dispatcher's locale dictionaries. A language's files are read the first
/// time a message in it needs them, so starting the module reads none.
package final class WordBook: Sendable {
    private let keyFolders: [String]
    private let symbolsFolder: String
    private let logger: Logger
    private let keyTables = Locked<[String: [String: String]]>([:])
    private let symbolTables = Locked<[String: [String: String]]>([:])

    package init(keyFolders: [String], symbolsFolder: String, logger: Logger) {
        self.keyFolders = keyFolders
        self.symbolsFolder = symbolsFolder
        self.logger = logger
    }

    /// The words for SSIP key name `key` (`shift`, `kp-enter`…) in `language`, falling back to the
    /// language alone (`pt` for `pt-BR`), then to English; with the language they are in.
    package func keyName(_ key: String, language: LanguageTag) -> (words: String, language: String)? {
        let key = key.lowercased()
        for locale in Self.locales(of: language) + ["en"] {
            if let words = keyTable(locale)[key] { return (words, locale) }
        }
        return nil
    }

    /// The name of a symbol or emoji in `language`, from speech-dispatcher's dictionaries.
    package func symbolName(_ character: String, language: LanguageTag) -> String? {
        for locale in Self.locales(of: language) {
            if let name = symbolTable(locale)[character] { return name }
        }
        return nil
    }

    /// Locale folder names for `tag`, most specific first: `pt-BR` → `pt_BR`, `pt`.
    static func locales(of tag: LanguageTag) -> [String] {
        var subtags = tag.description.split(separator: "-").map(String.init)
        // espeak-ng's Mandarin and Cantonese voices use the macrolanguage subtags.
        if subtags.first == "cmn" { subtags = ["zh", "CN"] }
        if subtags.first == "yue" { subtags = ["yue"] }
        var result: [String] = []
        if subtags.count >= 2, subtags[1].count == 2 { result.append("\(subtags[0])_\(subtags[1])") }
        result.append(subtags[0])
        return result
    }

    private func keyTable(_ locale: String) -> [String: String] {
        keyTables.withLock { tables in
            if let table = tables[locale] { return table }
            var table: [String: String] = [:]
            // An earlier folder wins: a user's table overrides the system's.
            for folder in keyFolders {
                let path = "\(folder)/\(locale).conf"
                guard case .success(let text) = readTextFile(path) else { continue }
                let (names, issues) = KeyNameTable.parse(text)
                for issue in issues { logger.warning("\(path): \(issue)") }
                table = names
                break
            }
            tables[locale] = table
            return table
        }
    }

    private func symbolTable(_ locale: String) -> [String: String] {
        symbolTables.withLock { tables in
            if let table = tables[locale] { return table }
            var table: [String: String] = [:]
            for file in ["symbols.dic", "emojis.dic"] {
                guard case .success(let text) = readTextFile("\(symbolsFolder)/\(locale)/\(file)") else { continue }
                table.merge(SymbolDictionary.parse(text)) { first, _ in first }
            }
            tables[locale] = table
            return table
        }
    }

    /// The standard folders of key name tables: `$XDG_DATA_HOME/utter/keys`, then `utter/keys`
    /// in each of `$XDG_DATA_DIRS`, as the XDG base directory specification orders them.
    package static func standardKeyFolders(environment: (String) -> String?) -> [String] {
        BaseDirectories.data("utter/keys", environment: environment)
    }
}
