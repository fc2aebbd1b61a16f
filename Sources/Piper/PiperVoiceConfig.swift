import JSON

/// What a Piper voice's `MODEL.onnx.json` says that synthesis needs.
public struct PiperVoiceConfig: Equatable, Sendable {
    /// The rate of the model's samples (`audio.sample_rate`).
    public var sampleRate: Int
    /// The espeak-ng voice that gives the phonemes (`espeak.voice`, such as `en-us`).
    public var espeakVoice: String
    /// Each phoneme (one Unicode scalar) and the ids it stands for (`phoneme_id_map`).
    public var phonemeIDs: [Unicode.Scalar: [Int64]]
    /// `inference.noise_scale`, `length_scale`, `noise_w`.
    public var noiseScale: Float
    public var lengthScale: Float
    public var noiseWidth: Float
    /// `num_speakers`; above 1 the model takes a speaker id.
    public var speakerCount: Int
    /// Speaker names and their ids (`speaker_id_map`), sorted by id.
    public var speakers: [(name: String, id: Int)]
    /// The language as a BCP 47 tag (`language.code` `en_US` → `en-US`), else espeak's voice name.
    public var language: String

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sampleRate == rhs.sampleRate && lhs.espeakVoice == rhs.espeakVoice && lhs.phonemeIDs == rhs.phonemeIDs
            && lhs.noiseScale == rhs.noiseScale && lhs.lengthScale == rhs.lengthScale
            && lhs.noiseWidth == rhs.noiseWidth && lhs.speakerCount == rhs.speakerCount
            && lhs.speakers.map(\.name) == rhs.speakers.map(\.name) && lhs.speakers.map(\.id) == rhs.speakers.map(\.id)
            && lhs.language == rhs.language
    }

    /// The symbols Piper puts around and between phonemes.
    public static let padding: Unicode.Scalar = "_"
    public static let start: Unicode.Scalar = "^"
    public static let end: Unicode.Scalar = "$"

    /// Reads a voice's JSON: every problem that makes it unusable is named (key and line).
    public static func parse(_ text: String) -> Result<PiperVoiceConfig, PiperConfigError> {
        let root: JSONValue
        do {
            root = try JSONReader.value(of: text)
        } catch {
            return .failure(PiperConfigError(problems: ["not JSON: \(error)"]))
        }
        var reader = Reader()
        let config = reader.config(root)
        if let config, reader.problems.isEmpty { return .success(config) }
        return .failure(PiperConfigError(problems: reader.problems.isEmpty ? ["unusable"] : reader.problems))
    }

    private struct Reader {
        var problems: [String] = []

        mutating func config(_ root: JSONValue) -> PiperVoiceConfig? {
            guard case .object(let members) = root.kind else {
                problems.append("line \(root.line): the file is \(root.quoted), not an object")
                return nil
            }
            let audio = object(members, "audio", in: "")
            let rate = audio.flatMap { integer($0, "sample_rate", in: "audio.", range: 1000...384_000) }
            let espeak = object(members, "espeak", in: "")
            let voice = espeak.flatMap { string($0, "voice", in: "espeak.") }
            let inference = object(members, "inference", in: "")
            let noiseScale = inference.flatMap { number($0, "noise_scale", in: "inference.", range: 0...10) }
            let lengthScale = inference.flatMap { number($0, "length_scale", in: "inference.", range: 0.01...100) }
            let noiseWidth = inference.flatMap { number($0, "noise_w", in: "inference.", range: 0...10) }
            var speakerCount = 1
            if value(members, "num_speakers") != nil {
                speakerCount = integer(members, "num_speakers", in: "", range: 1...100_000) ?? 1
            }
            var speakers: [(String, Int)] = []
            if let map = value(members, "speaker_id_map") {
                if case .object(let entries) = map.kind {
                    for entry in entries {
                        guard let number = entry.value.number, number >= 0, number < 100_000,
                            number == number.rounded()
                        else {
                            problems.append(
                                "line \(entry.value.line): speaker_id_map.\(entry.key) is \(entry.value.quoted), not a speaker id"
                            )
                            continue
                        }
                        speakers.append((entry.key, Int(number)))
                    }
                } else {
                    problems.append("line \(map.line): speaker_id_map is \(map.quoted), not an object")
                }
            }
            var ids: [Unicode.Scalar: [Int64]] = [:]
            if let map = value(members, "phoneme_id_map") {
                if case .object(let entries) = map.kind {
                    for entry in entries {
                        let scalars = Array(entry.key.unicodeScalars)
                        guard scalars.count == 1 else {
                            problems.append(
                                "line \(entry.value.line): phoneme_id_map key \(JSONWriter.quoted(entry.key)) is not one character"
                            )
                            continue
                        }
                        guard case .array(let list) = entry.value.kind, !list.isEmpty else {
                            problems.append(
                                "line \(entry.value.line): phoneme_id_map.\(entry.key) is \(entry.value.quoted), not a list of ids"
                            )
                            continue
                        }
                        var numbers: [Int64] = []
                        for item in list {
                            guard let number = item.number, number >= 0, number < 1_000_000,
                                number == number.rounded()
                            else {
                                problems.append(
                                    "line \(item.line): phoneme_id_map.\(entry.key) holds \(item.quoted), not an id")
                                continue
                            }
                            numbers.append(Int64(number))
                        }
                        ids[scalars[0]] = numbers
                    }
                    for symbol in [PiperVoiceConfig.padding, PiperVoiceConfig.start, PiperVoiceConfig.end]
                    where ids[symbol] == nil {
                        problems.append(
                            "phoneme_id_map has no \(JSONWriter.quoted(String(symbol))), which Piper models need")
                    }
                } else {
                    problems.append("line \(map.line): phoneme_id_map is \(map.quoted), not an object")
                }
            } else {
                problems.append("phoneme_id_map is missing")
            }
            var language = voice ?? "und"
            if let languageObject = object(members, "language", in: "", optional: true),
                let code = value(languageObject, "code")
            {
                if case .string(let text) = code.kind, !text.isEmpty {
                    language = text.replacingUnderscores()
                } else {
                    problems.append("line \(code.line): language.code is \(code.quoted), not a language code")
                }
            }
            guard let rate, let voice, let noiseScale, let lengthScale, let noiseWidth else { return nil }
            return PiperVoiceConfig(
                sampleRate: rate, espeakVoice: voice, phonemeIDs: ids, noiseScale: noiseScale,
                lengthScale: lengthScale, noiseWidth: noiseWidth, speakerCount: speakerCount,
                speakers: speakers.sorted { $0.1 < $1.1 }, language: language)
        }

        func value(_ members: [JSONValue.Member], _ key: String) -> JSONValue? {
            members.last { $0.key == key }?.value
        }

        mutating func object(_ members: [JSONValue.Member], _ key: String, in path: String, optional: Bool = false)
            -> [JSONValue.Member]?
        {
            guard let found = value(members, key) else {
                if !optional { problems.append("\(path)\(key) is missing") }
                return nil
            }
            guard case .object(let inner) = found.kind else {
                problems.append("line \(found.line): \(path)\(key) is \(found.quoted), not an object")
                return nil
            }
            return inner
        }

        mutating func string(_ members: [JSONValue.Member], _ key: String, in path: String) -> String? {
            guard let found = value(members, key) else {
                problems.append("\(path)\(key) is missing")
                return nil
            }
            guard case .string(let text) = found.kind, !text.isEmpty else {
                problems.append("line \(found.line): \(path)\(key) is \(found.quoted), not a name")
                return nil
            }
            return text
        }

        mutating func number(
            _ members: [JSONValue.Member], _ key: String, in path: String, range: ClosedRange<Double>
        ) -> Float? {
            guard let found = value(members, key) else {
                problems.append("\(path)\(key) is missing")
                return nil
            }
            guard let number = found.number, range.contains(number) else {
                problems.append(
                    "line \(found.line): \(path)\(key) is \(found.quoted), not a number from \(range.lowerBound) to \(range.upperBound)"
                )
                return nil
            }
            return Float(number)
        }

        mutating func integer(
            _ members: [JSONValue.Member], _ key: String, in path: String, range: ClosedRange<Int>
        ) -> Int? {
            guard let found = value(members, key) else {
                problems.append("\(path)\(key) is missing")
                return nil
            }
            guard let number = found.number, number == number.rounded(),
                Double(range.lowerBound) <= number, number <= Double(range.upperBound)
            else {
                problems.append(
                    "line \(found.line): \(path)\(key) is \(found.quoted), not a whole number from \(range.lowerBound) to \(range.upperBound)"
                )
                return nil
            }
            return Int(number)
        }
    }
}

/// Why a voice's JSON cannot be used: every problem found.
public struct PiperConfigError: Error, Equatable, CustomStringConvertible {
    public var problems: [String]
    public var description: String { problems.joined(separator: "; ") }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
