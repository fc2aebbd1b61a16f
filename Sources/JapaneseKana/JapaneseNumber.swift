/// A number written with digits (ASCII or full width), kanji numerals or both (`2025`, `１２`,
/// `六百`, `1億2000万`, `3.5`), read in Japanese, alone or with the counter after it.
public struct JapaneseNumber: Equatable, Sendable {
    enum Value: Equatable {
        case integer(UInt64)
        case decimal(UInt64, fraction: [Int])
        /// Read digit by digit: leading zeros (`007`), or too long to read as a value.
        case digits([Int])
    }

    let value: Value

    /// Reads the written number; nil when the text is not one (empty, or a character that is no
    /// digit, numeral, comma between groups of three or decimal point).
    public init?(_ text: some StringProtocol) {
        var integerPart: [Unicode.Scalar] = []
        var fractionPart: [Unicode.Scalar]? = nil
        for scalar in text.unicodeScalars {
            if scalar == "." || scalar == "．" {
                guard fractionPart == nil, !integerPart.isEmpty else { return nil }
                fractionPart = []
            } else if scalar == "," || scalar == "，" {
                guard fractionPart == nil else { return nil }
                integerPart.append(",")
            } else {
                guard Self.digit(scalar) != nil || Self.unit(scalar) != nil else { return nil }
                if fractionPart != nil { fractionPart!.append(scalar) } else { integerPart.append(scalar) }
            }
        }
        guard !integerPart.isEmpty else { return nil }
        if integerPart.contains(",") {
            // Only groups of three digits after the first, in each run of digits: 1,000 and
            // 12,345,678, and 1億2,500万.
            let runs = integerPart.split(omittingEmptySubsequences: false) { Self.unit($0) != nil }
            for run in runs where run.contains(",") {
                let groups = run.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                    return nil
                }
            }
            integerPart.removeAll { $0 == "," }
        }
        if let fractionPart {
            let fraction = fractionPart.compactMap(Self.digit)
            guard !fraction.isEmpty, fraction.count == fractionPart.count,
                case .integer(let integer)? = Self.value(of: integerPart)
            else { return nil }
            value = .decimal(integer, fraction: fraction)
        } else if let parsed = Self.value(of: integerPart) {
            value = parsed
        } else {
            return nil
        }
    }

    /// The reading of the number alone (`2025` ニセンニジューゴ).
    public var reading: String { reading(counter: nil) }

    /// The reading of the number followed by the counter, with the counter's sound changes
    /// (`3本` サンボン, `1本` イッポン, `20日` ハツカ); nil when the counter is not one it knows.
    /// - Parameter date: whether `日` is a day of the month (`1日` ツイタチ rather than イチニチ).
    public func reading(counter: String, date: Bool = false) -> String? {
        guard let known = Counter.named[counter] else { return nil }
        return reading(counter: known, date: date)
    }

    func reading(counter: Counter?, date: Bool = false) -> String {
        switch value {
        case .digits(let digits):
            let read = digits.map { Self.digitNames[$0] }.joined()
            return read + (counter?.base ?? "")
        case .decimal(let integer, let fraction):
            let point = Counter(base: "テン", kind: .geminatingSOrT)
            let head = Self.reading(integer, counter: point, zero: "レー")
            let tail = fraction.map { Self.digitNames[$0] }.joined()
            return head + tail + (counter?.base ?? "")
        case .integer(let integer):
            guard let counter else { return Self.reading(integer, counter: nil) }
            if let special = counter.special(integer, date: date) { return special }
            return Self.reading(integer, counter: counter)
        }
    }

    // MARK: Parsing

    static func digit(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: Int(scalar.value - 0x30)
        case 0xFF10...0xFF19: Int(scalar.value - 0xFF10)
        default: kanjiDigits[scalar]
        }
    }

    private static let kanjiDigits: [Unicode.Scalar: Int] = [
        "〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
    ]

    /// The value of a unit numeral: 十百千 within a group of four digits, 万億兆 between groups.
    static func unit(_ scalar: Unicode.Scalar) -> (value: UInt64, isGroup: Bool)? {
        switch scalar {
        case "十": (10, false)
        case "百": (100, false)
        case "千": (1000, false)
        case "万": (10_000, true)
        case "億": (100_000_000, true)
        case "兆": (1_000_000_000_000, true)
        default: nil
        }
    }

    /// The largest number read as a value: below ten thousand 兆, the units this reading knows.
    static let limit: UInt64 = 10_000_000_000_000_000

    private static func value(of scalars: [Unicode.Scalar]) -> Value? {
        let allDigits = scalars.allSatisfy { digit($0) != nil }
        if allDigits {
            let digits = scalars.compactMap(digit)
            if digits.count > 1 && digits[0] == 0 || digits.count > 16 { return .digits(digits) }
        }
        var total: UInt64 = 0
        var group: UInt64 = 0  // within the current 万 group
        var current: UInt64? = nil  // the digits just read
        for scalar in scalars {
            if let digit = digit(scalar) {
                let (shifted, overflow) = (current ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, shifted < limit else { return fallback(scalars) }
                current = shifted + UInt64(digit)
            } else if let (unit, isGroup) = unit(scalar) {
                if isGroup {
                    var multiplier = group + (current ?? 0)
                    if multiplier == 0 { multiplier = 1 }
                    let (product, overflow) = multiplier.multipliedReportingOverflow(by: unit)
                    guard !overflow, product < limit - total else { return fallback(scalars) }
                    total += product
                    group = 0
                } else {
                    let (product, overflow) = (current ?? 1).multipliedReportingOverflow(by: unit)
                    guard !overflow, product < limit - group else { return fallback(scalars) }
                    group += product
                }
                current = nil
            } else {
                return nil
            }
        }
        let rest = group + (current ?? 0)
        guard rest < limit - total else { return fallback(scalars) }
        return .integer(total + rest)
    }

    private static func fallback(_ scalars: [Unicode.Scalar]) -> Value? {
        let digits = scalars.compactMap(digit)
        return digits.count == scalars.count ? .digits(digits) : nil
    }

    // MARK: Reading

    static let digitNames = ["ゼロ", "イチ", "ニ", "サン", "ヨン", "ゴ", "ロク", "ナナ", "ハチ", "キュー"]

    /// The last element of a number's reading, the one a counter changes (`イチ` in `21`, `ヒャク` in `300`).
    enum Tail: Equatable {
        case digit(Int)
        case ten
        case hundred(Int)
        case thousand(Int)
        case group(UInt64)  // 万, 億 or 兆
    }

    /// Splits the number into the reading of everything before its last element, and that element.
    static func split(_ number: UInt64) -> (head: String, tail: Tail) {
        if number >= 10_000 {
            for unit: UInt64 in [1_000_000_000_000, 100_000_000, 10_000] where number >= unit {
                let rest = number % unit
                let multiplier = number / unit
                if rest == 0 { return (groupMultiplier(multiplier, unit: unit), .group(unit)) }
                let (head, tail) = split(rest)
                return (reading(multiplier * unit, counter: nil) + head, tail)
            }
        }
        let thousands = Int(number / 1000)
        let hundreds = Int(number / 100 % 10)
        let tens = Int(number / 10 % 10)
        let ones = Int(number % 10)
        var head = ""
        if ones > 0 || number == 0 {
            head = fourDigits(thousands, hundreds, tens, 0)
            return (head, .digit(ones))
        }
        if tens > 0 {
            head = fourDigits(thousands, hundreds, 0, 0) + (tens > 1 ? digitNames[tens] : "")
            return (head, .ten)
        }
        if hundreds > 0 { return (fourDigits(thousands, 0, 0, 0), .hundred(hundreds)) }
        return ("", .thousand(thousands))
    }

    /// The multiplier of 万, 億 or 兆 (`1000万` イッセンマン: a thousand before a group unit is geminated).
    private static func groupMultiplier(_ multiplier: UInt64, unit: UInt64) -> String {
        let (head, tail) = split(multiplier)
        switch tail {
        case .thousand(1): return head + "イッセン"
        case .digit(1) where unit == 1_000_000_000_000: return head + "イッ"
        case .digit(8) where unit == 1_000_000_000_000: return head + "ハッ"
        case .ten where unit == 1_000_000_000_000: return head + "ジュッ"
        default: return head + tailReading(tail)
        }
    }

    private static func fourDigits(_ thousands: Int, _ hundreds: Int, _ tens: Int, _ ones: Int) -> String {
        var text = ""
        if thousands > 0 { text += tailReading(.thousand(thousands)) }
        if hundreds > 0 { text += tailReading(.hundred(hundreds)) }
        if tens > 0 { text += (tens > 1 ? digitNames[tens] : "") + "ジュー" }
        if ones > 0 { text += digitNames[ones] }
        return text
    }

    static func tailReading(_ tail: Tail) -> String {
        switch tail {
        case .digit(let digit): digitNames[digit]
        case .ten: "ジュー"
        case .hundred(let digit):
            switch digit {
            case 1: "ヒャク"
            case 3: "サンビャク"
            case 6: "ロッピャク"
            case 8: "ハッピャク"
            default: digitNames[digit] + "ヒャク"
            }
        case .thousand(let digit):
            switch digit {
            case 1: "セン"
            case 3: "サンゼン"
            case 8: "ハッセン"
            default: digitNames[digit] + "セン"
            }
        case .group(let unit): unit == 10_000 ? "マン" : unit == 100_000_000 ? "オク" : "チョー"
        }
    }

    static func reading(_ number: UInt64, counter: Counter?, zero: String = "ゼロ") -> String {
        if number == 0 { return zero + (counter?.base ?? "") }
        let (head, tail) = split(number)
        guard let counter else { return head + tailReading(tail) }
        return head + counter.reading(after: tail)
    }
}
