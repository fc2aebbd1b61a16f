/// A counter word after a number (`人`, `本`, `時`) and the sound changes it makes with the number's
/// last element: gemination (`1個` イッコ), voicing (`3本` サンボン), and readings of its own.
struct Counter: Sendable {
    enum Kind: Sendable {
        /// No change (`円`, `人`, `時`).
        case plain
        /// k- or p-initial: 1, 6, 8, 10 and 100 are geminated (`1個` イッコ, `6回` ロッカイ, `100個` ヒャッコ).
        case geminatingK
        /// s- or t-initial: 1, 8 and 10 are geminated (`1冊` イッサツ, `8歳` ハッサイ).
        case geminatingSOrT
        /// h-initial: p after a geminate (`1本` イッポン), `voicedAfterN` after ン (`3本` サンボン).
        case hRow(p: String, voicedAfterN: String)
    }

    var base: String
    var kind: Kind
    /// Readings of a last digit with this counter (`4時` ヨジ, `9月` クガツ).
    var digits: [Int: String] = [:]
    /// Whole readings of certain numbers (`1人` ヒトリ, `20日` ハツカ).
    var exact: [UInt64: String] = [:]
    /// Whole readings used when `日` is a day of the month (`1日` ツイタチ).
    var dates: [UInt64: String] = [:]

    func special(_ number: UInt64, date: Bool) -> String? {
        if date, let reading = dates[number] { return reading }
        return exact[number]
    }

    func reading(after tail: JapaneseNumber.Tail) -> String {
        if case .digit(let digit) = tail, let reading = digits[digit] { return reading }
        switch kind {
        case .plain:
            return JapaneseNumber.tailReading(tail) + base
        case .geminatingK, .geminatingSOrT:
            if let geminated = geminated(tail) { return geminated + base }
            return JapaneseNumber.tailReading(tail) + base
        case .hRow(let p, let voiced):
            if let geminated = geminated(tail) { return geminated + p }
            let reading = JapaneseNumber.tailReading(tail)
            if reading.hasSuffix("ン") && tail != .digit(4) { return reading + voiced }
            return reading + base
        }
    }

    private func geminated(_ tail: JapaneseNumber.Tail) -> String? {
        let all: Bool
        switch kind {
        case .plain: return nil
        case .geminatingSOrT: all = false
        case .geminatingK, .hRow: all = true
        }
        switch tail {
        case .digit(1): return "イッ"
        case .digit(6) where all: return "ロッ"
        case .digit(8): return "ハッ"
        case .ten: return "ジュッ"
        case .hundred(let digit) where all:
            return String(JapaneseNumber.tailReading(.hundred(digit)).dropLast()) + "ッ"
        default: return nil
        }
    }

    /// The counters known, by how they are written.
    static let named: [String: Counter] = {
        let hours = [4: "ヨジ", 7: "シチジ", 9: "クジ"]
        var counters: [String: Counter] = [
            "人": Counter(base: "ニン", kind: .plain, digits: [4: "ヨニン"], exact: [1: "ヒトリ", 2: "フタリ"]),
            "日": Counter(
                base: "ニチ", kind: .plain, digits: [4: "ヨッカ", 7: "シチニチ", 9: "クニチ"],
                exact: [
                    2: "フツカ", 3: "ミッカ", 4: "ヨッカ", 5: "イツカ", 6: "ムイカ", 7: "ナノカ", 8: "ヨーカ",
                    9: "ココノカ", 10: "トーカ", 20: "ハツカ",
                ],
                dates: [1: "ツイタチ"]),
            "月": Counter(base: "ガツ", kind: .plain, digits: [4: "シガツ", 7: "シチガツ", 9: "クガツ"]),
            "年": Counter(base: "ネン", kind: .plain, digits: [4: "ヨネン"]),
            "時": Counter(base: "ジ", kind: .plain, digits: hours),
            "時間": Counter(base: "ジカン", kind: .plain, digits: hours.mapValues { $0 + "カン" }),
            "分": Counter(base: "フン", kind: .hRow(p: "プン", voicedAfterN: "プン"), digits: [4: "ヨンプン"]),
            "秒": Counter(base: "ビョー", kind: .plain),
            "円": Counter(base: "エン", kind: .plain, digits: [4: "ヨエン"]),
            "個": Counter(base: "コ", kind: .geminatingK),
            "回": Counter(base: "カイ", kind: .geminatingK),
            "階": Counter(base: "カイ", kind: .geminatingK, digits: [3: "サンガイ"]),
            "件": Counter(base: "ケン", kind: .geminatingK),
            "本": Counter(base: "ホン", kind: .hRow(p: "ポン", voicedAfterN: "ボン")),
            "匹": Counter(base: "ヒキ", kind: .hRow(p: "ピキ", voicedAfterN: "ビキ")),
            "杯": Counter(base: "ハイ", kind: .hRow(p: "パイ", voicedAfterN: "バイ")),
            "泊": Counter(base: "ハク", kind: .hRow(p: "パク", voicedAfterN: "パク")),
            "枚": Counter(base: "マイ", kind: .plain),
            "歳": Counter(base: "サイ", kind: .geminatingSOrT, exact: [20: "ハタチ"]),
            "才": Counter(base: "サイ", kind: .geminatingSOrT, exact: [20: "ハタチ"]),
            "冊": Counter(base: "サツ", kind: .geminatingSOrT),
            "週": Counter(base: "シュー", kind: .geminatingSOrT),
            "週間": Counter(base: "シューカン", kind: .geminatingSOrT),
            "点": Counter(base: "テン", kind: .geminatingSOrT),
            "番": Counter(base: "バン", kind: .plain),
            "台": Counter(base: "ダイ", kind: .plain),
            "度": Counter(base: "ド", kind: .plain),
            "倍": Counter(base: "バイ", kind: .plain),
            "キロ": Counter(base: "キロ", kind: .geminatingK),
            "%": Counter(base: "パーセント", kind: .hRow(p: "パーセント", voicedAfterN: "パーセント")),
            "つ": Counter(
                base: "ツ", kind: .plain,
                exact: [
                    1: "ヒトツ", 2: "フタツ", 3: "ミッツ", 4: "ヨッツ", 5: "イツツ", 6: "ムッツ", 7: "ナナツ",
                    8: "ヤッツ", 9: "ココノツ", 10: "トー",
                ]),
        ]
        counters["％"] = counters["%"]
        counters["ヶ月"] = Counter(base: "カゲツ", kind: .geminatingK)
        counters["か月"] = counters["ヶ月"]
        counters["ヵ月"] = counters["ヶ月"]
        counters["カ月"] = counters["ヶ月"]
        return counters
    }()
}
