// Figures for bench/render --japanese, apart from the tests (which never time anything):
//   JapaneseReadingBench spoken TEXT   the text as the Japanese voice is given it: each word's kana,
//                                      words apart, text outside words as written
//   JapaneseReadingBench words TEXT    each word: its source text, its kana
//   JapaneseReadingBench time [DICTIONARY_FOLDER]
//                                      analysis time per 1,000 characters, and the resident memory
//                                      the dictionary costs (of the folder given, to compare)
// Build it release: swift build -c release --product JapaneseReadingBench
import Glibc
import JapaneseReading
import SSML
import System

/// The peak resident set of this process, in kilobytes (VmHWM).
func peakResidentKilobytes() -> Int { statusKilobytes("VmHWM:") }

/// A figure of /proc/self/status in kilobytes (`VmHWM:`, `RssFile:`).
func statusKilobytes(_ field: String) -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [UInt8](repeating: 0, count: 256)
    while line.withUnsafeMutableBufferPointer({
        fgets($0.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }, 256, file)
    }) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }, as: UTF8.self)
        if text.hasPrefix(field) { return Int(text.split(separator: " ")[1]) ?? 0 }
    }
    return 0
}

/// The CPU time this thread has used, in nanoseconds.
func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// `value` with three decimals.
func milliseconds(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

func spoken(_ text: String, by reader: JapaneseReader) -> String {
    let scalars = Array(text.unicodeScalars)
    var result = ""
    var position = 0
    for word in reader.words(of: text, language: "ja") {
        result += String(String.UnicodeScalarView(scalars[position..<word.source.lowerBound]))
        result += " " + word.spoken + " "
        position = word.source.upperBound
    }
    result += String(String.UnicodeScalarView(scalars[position...]))
    return result.split(separator: " ").joined(separator: " ")
}

func time(_ reader: JapaneseReader, before: Int) {
    let opened = peakResidentKilobytes()
    let sentences = [
        "それでは発表します。", "今日は東京へ行きました。", "会議は午後3時から始まります。",
        "新しい製品の価格は1万2000円です。", "私たちは昨年、全国で20店舗を開きました。",
        "この資料の内容について、質問があればお願いします。", "天気予報によると、明日は雨が降るそうです。",
        "ＰＣの画面を共有してもよろしいでしょうか。",
    ]
    let text = String(repeating: sentences.joined(), count: 40)
    let characters = text.unicodeScalars.count
    _ = reader.words(of: text, language: "ja")  // pages the dictionary in
    var times: [UInt64] = []
    var cpuTimes: [UInt64] = []
    var words = 0
    for _ in 0..<30 {
        let start = MonotonicClock.now
        let cpuStart = threadCPUTime()
        words = reader.words(of: text, language: "ja").count
        cpuTimes.append(threadCPUTime() - cpuStart)
        times.append(MonotonicClock.now - start)
    }
    times.sort()
    cpuTimes.sort()
    let perThousand = { (nanoseconds: UInt64) in Double(nanoseconds) / 1e6 * 1000 / Double(characters) }
    print("dictionary: \(reader.dictionary.path)")
    print(
        "analysis: \(characters) characters, \(words) words, 30 runs; per 1,000 characters: median "
            + "\(milliseconds(perThousand(times[times.count / 2]))) ms, max \(milliseconds(perThousand(times.last!))) ms; "
            + "CPU time of the thread: median \(milliseconds(perThousand(cpuTimes[cpuTimes.count / 2]))) ms (wall time "
            + "includes waiting for a core on a busy machine)")
    print(
        "peak RSS: \(before / 1024) MB before opening, \(opened / 1024) MB opened (+\((opened - before) / 1024) MB), "
            + "\(peakResidentKilobytes() / 1024) MB after analysing (now \(statusKilobytes("RssFile:") / 1024) MB of "
            + "mapped files, the dictionary's pages shared with other processes, and \(statusKilobytes("RssAnon:") / 1024) MB "
            + "anonymous)")
}

func main(_ arguments: [String]) -> Int32 {
    let usage = "usage: JapaneseReadingBench spoken TEXT | words TEXT | time [DICTIONARY_FOLDER]"
    guard let command = arguments.first else {
        print(usage)
        return 2
    }
    let before = peakResidentKilobytes()
    let reader: JapaneseReader
    let openStart = MonotonicClock.now
    do {
        let folder = command == "time" ? arguments.dropFirst().first : nil
        reader = try JapaneseReader(dictionary: folder.map { JapaneseDictionary(path: $0) })
    } catch {
        print(error)
        return 1
    }
    let text = arguments.dropFirst().joined(separator: " ")
    switch command {
    case "spoken":
        print(spoken(text, by: reader))
    case "words":
        let scalars = Array(text.unicodeScalars)
        for word in reader.words(of: text, language: "ja") {
            print(String(String.UnicodeScalarView(scalars[word.source])), word.spoken, separator: "\t")
        }
    case "time":
        print("opening the reader: \(milliseconds(Double(MonotonicClock.now - openStart) / 1e6)) ms")
        time(reader, before: before)
    default:
        print(usage)
        return 2
    }
    return 0
}

exit(main(Array(CommandLine.arguments.dropFirst())))
