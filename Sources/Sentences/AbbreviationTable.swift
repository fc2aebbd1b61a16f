/// Corrections to ICU's abbreviation lists, per language.
///
/// ICU's lists miss common abbreviations (English `Dr.`, `e.g.`; German `bzw.`, `ca.`) and hold
/// words that often end a sentence (English `Go.`, `To.`; German `Test.`, `So.`), which would glue
/// two sentences together when read aloud.
enum AbbreviationTable {
    struct Entries {
        var abbreviations: Set<String> = []
        var notAbbreviations: Set<String> = []
    }

    static func entries(for language: String) -> Entries {
        switch language {
        case "en":
            Entries(
                abbreviations: [
                    "Dr.", "Drs.", "Jr.", "Sr.", "St.", "Mt.", "Ft.", "Gen.", "Gov.", "Sen.", "Rep.", "Pres.", "Hon.",
                    "Fig.", "Figs.", "Vol.", "Vols.", "Ch.", "Sec.", "Ave.", "Blvd.", "Rd.", "e.g.", "i.e.", "cf.",
                    "vs.", "viz.", "approx.", "ca.", "al.", "Mmes.", "Messrs.",
                ],
                notAbbreviations: [
                    "Is.", "On.", "To.", "Go.", "Up.", "By.", "In.", "As.", "Or.", "Do.", "All.", "Job.", "Hat.",
                    "Link.", "Act.", "Long.", "Joe.", "Pro.", "Ok.", "OK.", "Ex.", "Id.", "Ed.", "Card.", "Jam.",
                    "Mart.", "Var.", "Def.", "Diff.", "Comm.", "Cap.", "Lev.", "Cont.", "Misc.", "Org.", "Lib.",
                    "Est.", "Num.", "AA.", "AB.", "AD.", "PC.", "PP.", "DC.", "VS.", "MR.",
                ])
        case "de":
            Entries(
                abbreviations: [
                    "bzw.", "ca.", "d. h.", "z. T.", "u. a.", "Prof.", "Tsd.", "Bd.", "Bde.", "Jh.", "Jhd.", "Abb.",
                    "Tab.", "bspw.", "zzt.", "zz.", "Mr.", "Mrs.", "insb.", "ebd.", "usf.",
                ],
                notAbbreviations: [
                    "Test.", "So.", "Alt.", "Port.", "Best.", "Mind.", "Max.", "Temp.", "Mod.", "Min.", "Reg.", "Art.",
                    "Fam.", "Ben.", "App.", "Int.", "Dat.", "Gem.", "Rel.", "Trans.", "PIN.", "Inc.", "Ltd.", "Co.",
                ])
        case "fr":
            Entries(abbreviations: ["MM.", "Mme.", "Mlle.", "cf.", "env.", "etc.", "vol.", "chap.", "Dr.", "St."])
        default:
            Entries()
        }
    }

    /// Abbreviations a number follows: `No. 5`, `p. 12`, `S. 3`, `Nr. 7`.
    static let beforeNumbers: Set<String> = [
        "No.", "Nos.", "no.", "Nr.", "Nrn.", "nr.", "p.", "pp.", "S.", "s.", "Fig.", "Abb.", "Art.", "Vol.", "vol.",
        "Bd.", "Kap.", "Abs.", "Tab.", "Ch.", "ch.", "Sec.", "ca.", "approx.", "Tel.", "tel.", "vs.", "cf.", "v.",
        "n°", "t.", "Nº",
    ]

    /// Languages that write ordinal numbers with a full stop (`3.` for the third).
    static let ordinalLanguages: Set<String> = [
        "de", "da", "nb", "nn", "no", "fi", "is", "fo", "et", "lv", "lt", "cs", "sk", "sl", "hr", "bs", "sr", "hu",
        "pl", "tr",
    ]

    /// Month names an ordinal comes before (`3. Oktober`).
    static let months: Set<String> = [
        "Januar", "Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
        "November", "Dezember", "Jan", "Feb", "Mär", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Okt", "Nov", "Dez",
    ]

    /// Languages whose quotations open low or with `»` and close with `“` or `«`.
    static let lowHighQuotationLanguages: Set<String> = [
        "de", "da", "cs", "sk", "sl", "hr", "et", "lt", "lv", "is", "bg", "ka", "sq",
    ]
}
