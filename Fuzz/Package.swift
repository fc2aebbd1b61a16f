// swift-tools-version: 6.1
// libFuzzer targets for Utter's pure layers and ChineseReading (ICU). Not part of the main build: build and run them with
// Fuzz/run (see testing.md §5 in the project's shared docs).
import PackageDescription

let package = Package(
    name: "UtterFuzz",
    dependencies: [.package(name: "Utter", path: "..")],
    targets: [
        .executableTarget(
            name: "ProtocolFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "StateMachineFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "SSMLFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "ConfigurationFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "ClipVoiceFuzzer",
            dependencies: ["FuzzSupport", .product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "ReadingFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "ChineseReadingFuzzer", dependencies: [.product(name: "ChineseReading", package: "Utter")]),
        .executableTarget(
            name: "ScenarioFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "PiperConfigFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "ModelEditFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "JSONFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "WordAlignerFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "NumpyFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "SegmenterFuzzer",
            dependencies: ["FuzzSupport", .product(name: "UtterPureLayers", package: "Utter")]),
        // What segments say, whatever their borders: the differential fuzzers' common measure.
        .target(name: "FuzzSupport", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        .executableTarget(
            name: "KokoroTextFuzzer", dependencies: [.product(name: "UtterPureLayers", package: "Utter")]),
        // Not pure: MeCab with the installed dictionary (mecab-ipadic-utf8).
        .executableTarget(
            name: "JapaneseReaderFuzzer", dependencies: [.product(name: "JapaneseReading", package: "Utter")]),
    ]
)
