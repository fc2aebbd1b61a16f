/// Corrections to ICU's one-reading-per-character pinyin, for the commonest words it gets wrong.
///
/// Han-Latin knows no words: a character with several readings (多音字) always gets the same
/// one, and syllables spoken in the neutral tone keep their full tone. These rules fix frequent
/// cases only; they are no dictionary.
enum ReadingRules {
    /// Words read otherwise than character by character, found within ICU's words.
    static let words: [String: [Syllable]] = {
        let table: [String: String] = [
            // 地: dì in words, de as a particle (below).
            "地方": "di4 fang5",
            // 得: de after a verb (below), dé in these.
            "获得": "huo4 de2", "取得": "qu3 de2", "赢得": "ying2 de2", "难得": "nan2 de2", "心得": "xin1 de2",
            "所得": "suo3 de2", "不得": "bu4 de2", "求得": "qiu2 de2",
            // 长: cháng as an adjective, zhǎng for growing and heads.
            "长大": "zhang3 da4", "长辈": "zhang3 bei4", "校长": "xiao4 zhang3", "家长": "jia1 zhang3",
            "部长": "bu4 zhang3", "市长": "shi4 zhang3", "成长": "cheng2 zhang3", "增长": "zeng1 zhang3",
            "生长": "sheng1 zhang3", "班长": "ban1 zhang3", "队长": "dui4 zhang3", "董事长": "dong3 shi4 zhang3",
            "院长": "yuan4 zhang3", "所长": "suo3 zhang3", "县长": "xian4 zhang3", "省长": "sheng3 zhang3",
            // 行: háng for rows and trades.
            "银行": "yin2 hang2", "行业": "hang2 ye4", "排行": "pai2 hang2", "内行": "nei4 hang2",
            "外行": "wai4 hang2", "行列": "hang2 lie4",
            // 重: chóng for again.
            "重新": "chong2 xin1", "重复": "chong2 fu4", "重庆": "chong2 qing4", "重建": "chong2 jian4",
            // 还: huán for giving back.
            "还钱": "huan2 qian2", "归还": "gui1 huan2", "还给": "huan2 gei3",
            // 乐: yuè for music.
            "音乐": "yin1 yue4", "乐队": "yue4 dui4", "乐器": "yue4 qi4", "音乐会": "yin1 yue4 hui4",
            // 觉: jiào for sleep.
            "睡觉": "shui4 jiao4", "午觉": "wu3 jiao4",
            // 干: gān for dry.
            "干净": "gan1 jing4", "干燥": "gan1 zao4", "饼干": "bing3 gan1",
            // 着: zháo for reaching.
            "着急": "zhao2 ji2", "睡着": "shui4 zhao2",
            // 都: dū for capitals.
            "首都": "shou3 du1", "都市": "du1 shi4", "成都": "cheng2 du1",
            // 为: wéi for being, acting as.
            "认为": "ren4 wei2", "成为": "cheng2 wei2", "作为": "zuo4 wei2", "以为": "yi3 wei2",
            "行为": "xing2 wei2",
            // 便, 差, 调, 的.
            "便宜": "pian2 yi5", "出差": "chu1 chai1", "差别": "cha1 bie2", "空调": "kong1 tiao2",
            "调整": "tiao2 zheng3", "的确": "di2 que4", "目的": "mu4 di4",
            // 了 in words: liǎo to understand, le after a verb.
            "为了": "wei4 le5", "除了": "chu2 le5", "算了": "suan4 le5",
            // Everyday words with a neutral second syllable.
            "早上": "zao3 shang5", "晚上": "wan3 shang5", "漂亮": "piao4 liang5", "东西": "dong1 xi5",
            "时候": "shi2 hou5", "朋友": "peng2 you5", "知道": "zhi1 dao5", "先生": "xian1 sheng5",
            "意思": "yi4 si5", "喜欢": "xi3 huan5", "衣服": "yi1 fu5", "明白": "ming2 bai5",
            "告诉": "gao4 su5", "谢谢": "xie4 xie5", "休息": "xiu1 xi5", "认识": "ren4 shi5",
            "舒服": "shu1 fu5", "麻烦": "ma2 fan5", "这个": "zhe4 ge5", "那个": "na4 ge5", "哪个": "na3 ge5",
            "怎么": "zen3 me5", "什么": "shen2 me5", "这么": "zhe4 me5", "那么": "na4 me5",
            "多少": "duo1 shao5", "客气": "ke4 qi5", "地方上": "di4 fang5 shang4",
        ]
        return table.mapValues { $0.split(separator: " ").compactMap(Syllable.init(numbered:)) }
    }()

    /// The longest word of the table at `offset` of `characters`: its length and reading.
    static func longestWord(in characters: [Unicode.Scalar], at offset: Int) -> (Int, [Syllable])? {
        var length = min(longestEntry, characters.count - offset)
        while length >= 2 {
            var written = String.UnicodeScalarView()
            written.append(contentsOf: characters[offset..<offset + length])
            if let known = words[String(written)], known.count == length { return (length, known) }
            length -= 1
        }
        return nil
    }

    private static let longestEntry = words.keys.map(\.unicodeScalars.count).max() ?? 0

    /// The reading of the character at `position` of a word of `length` characters, where it
    /// differs from Han-Latin's by its place alone; nil where Han-Latin's stands.
    /// `reduplicated`: the word before the character is a doubled one (慢慢, 高高兴兴).
    static func positional(_ scalar: Unicode.Scalar, position: Int, length: Int, reduplicated: Bool) -> Syllable? {
        let alone = length == 1
        let first = position == 0
        switch scalar {
        case "地":
            // 地 after a doubled word (慢慢地) is the adverb's particle.
            return alone || reduplicated ? Syllable(letters: "de", tone: 5) : Syllable(letters: "di", tone: 4)
        case "得": return alone || position == length - 1 ? Syllable(letters: "de", tone: 5) : nil
        case "了": return first && !alone ? Syllable(letters: "liao", tone: 3) : Syllable(letters: "le", tone: 5)
        case "长": return alone || first ? Syllable(letters: "chang", tone: 2) : nil
        default: return nil
        }
    }

    /// Digits and the characters of numbers, after which 一 keeps its own tone (十一, 第一).
    private static let numeric: Set<Unicode.Scalar> = Set("〇零一二三四五六七八九十百千万亿第两0123456789".unicodeScalars)
    /// Words after which 一 is a number, not an article (一月, 一号).
    private static let dateUnits: Set<Unicode.Scalar> = Set("月号日点楼层年".unicodeScalars)

    /// The tone changes of 一 and 不 before another syllable, which pinyin does not write
    /// (espeak-ng makes the third-tone one itself): 不 before a fourth tone is bú; 一 before a
    /// fourth tone is yí, before the others yì, except in numbers, dates and ordinals.
    /// `syllables[i]` is the reading of `scalars[i]`, nil where it is no Han character.
    static func applyToneChanges(_ syllables: inout [Syllable?], scalars: [Unicode.Scalar]) {
        for index in syllables.indices {
            guard let syllable = syllables[index], index + 1 < syllables.count,
                let next = syllables[index + 1]
            else { continue }
            if scalars[index] == "不", syllable == Syllable(letters: "bu", tone: 4), next.tone == 4 {
                syllables[index]?.tone = 2
            } else if scalars[index] == "一", syllable == Syllable(letters: "yi", tone: 1) {
                let previous = index > 0 ? scalars[index - 1] : nil
                if let previous, numeric.contains(previous) { continue }
                if numeric.contains(scalars[index + 1]) || dateUnits.contains(scalars[index + 1]) { continue }
                syllables[index]?.tone = next.tone == 4 || next.tone == 5 ? 2 : 4
            }
        }
    }
}
