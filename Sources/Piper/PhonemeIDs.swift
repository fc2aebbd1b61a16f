/// A phoneme string as the ids a Piper model reads, with Piper's convention: the start symbol and
/// a pad, then each phoneme followed by a pad, then the end symbol.
public struct PhonemeIDs: Equatable, Sendable {
    public var ids: [Int64]
    /// For each scalar of the phonemes, the index in `ids` of its first id (a skipped phoneme gets
    /// the index of what follows it).
    public var starts: [Int]
    /// Phonemes the map lacks, skipped, each once in order of appearance.
    public var missing: [Unicode.Scalar]
    /// How many ids the start symbol and the end symbol take.
    public var startSymbolCount: Int
    public var endSymbolCount: Int
    /// How many ids the pad after each phoneme takes.
    public var padCount: Int

    public init(phonemes: [Unicode.Scalar], map: [Unicode.Scalar: [Int64]]) {
        let pad = map[PiperVoiceConfig.padding] ?? []
        let startSymbol = map[PiperVoiceConfig.start] ?? []
        let endSymbol = map[PiperVoiceConfig.end] ?? []
        var ids = startSymbol + pad
        var starts: [Int] = []
        var missing: [Unicode.Scalar] = []
        starts.reserveCapacity(phonemes.count)
        for phoneme in phonemes {
            starts.append(ids.count)
            guard let phonemeIDs = map[phoneme] else {
                if !missing.contains(phoneme) { missing.append(phoneme) }
                continue
            }
            ids += phonemeIDs
            ids += pad
        }
        ids += endSymbol
        self.ids = ids
        startSymbolCount = startSymbol.count
        padCount = pad.count
        endSymbolCount = endSymbol.count
        self.starts = starts
        self.missing = missing
    }
}
