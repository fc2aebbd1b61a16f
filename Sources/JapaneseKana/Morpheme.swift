/// A morpheme as MeCab's IPA dictionary describes it: where it is, how it is written, what it is
/// and how it is said.
public struct Morpheme: Equatable, Sendable {
    /// Where it is in the analysed text, in Unicode scalars.
    public var source: Range<Int>
    /// The text as written.
    public var surface: String
    /// The part of speech and its first subdivision (`名詞`, `数`), empty when unknown.
    public var partOfSpeech: String
    public var subdivision: String
    /// The dictionary's pronunciation in katakana (は as ワ, long vowels as ー), nil when it has none.
    public var pronunciation: String?

    public init(source: Range<Int>, surface: String, partOfSpeech: String, subdivision: String, pronunciation: String?)
    {
        self.source = source
        self.surface = surface
        self.partOfSpeech = partOfSpeech
        self.subdivision = subdivision
        self.pronunciation = pronunciation
    }

    /// Reads ipadic's feature string (`名詞,固有名詞,地域,一般,*,*,東京,トウキョウ,トーキョー`): the
    /// pronunciation is its ninth field, absent from unknown words, which have seven.
    public init(source: Range<Int>, surface: String, features: String) {
        let fields = features.split(separator: ",", omittingEmptySubsequences: false)
        func field(_ index: Int) -> String? {
            guard index < fields.count, fields[index] != "*", !fields[index].isEmpty else { return nil }
            return String(fields[index])
        }
        self.init(
            source: source, surface: surface, partOfSpeech: field(0) ?? "", subdivision: field(1) ?? "",
            pronunciation: field(8) ?? field(7))
    }

    /// Whether the dictionary counts it as a numeral (digits, 三, 百, 万).
    var isNumeral: Bool { partOfSpeech == "名詞" && subdivision == "数" }
    /// Whether it is punctuation or another symbol, left for the voice to read as written.
    var isSymbol: Bool { partOfSpeech == "記号" }
}
