// swift-tools-version: 6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // One section per function in release builds, so that sd_utter's link can lay out side by
    // side the functions it runs in everyday work (below).
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

/// What a program linked with `--static-swift-stdlib` need not load at every start:
/// - libstdc++.so, which the static Swift runtime names: packaging/static-libstdc++ makes that
///   `-lstdc++` GCC's static archive instead, of which the runtime uses a few functions (sd_utter's
///   peak VmHWM -1.0 MB: the shared library's symbol tables and relocations were resident);
/// - a dynamic symbol table of every function of the program (the static runtime's `-export-dynamic`),
///   which no library it opens looks into (-0.35 MB: 380 KB of tables the loader searched first for
///   every symbol of every library, now 18 KB).
let leanStart = [
    "-L\(Context.packageDirectory)/packaging/static-libstdc++", "-Xlinker", "--no-export-dynamic",
]

/// sd_utter's release link puts the functions it runs in everyday work (packaging/sd_utter.order,
/// written by bench/symbol-order) at the start of its code: the kernel maps a binary's pages
/// 64 KiB around each one touched, and that code scattered over 9 MB made most of it resident
/// (bench/README.md). lld reads the order by symbol (Debian's gold, Swift's default linker here,
/// takes section names and left the layout as it was); functions renamed since are skipped.
/// Relative relocations are packed (DT_RELR, read by glibc from 2.36, Debian 12's): the static
/// standard library's 28,000 took a 680 KB table that the loader read, and kept resident, at
/// every start; packed, they take 6 KB, and the module starts 0.7 MB smaller. And `leanStart`.
let everydayCodeFirst: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/sd_utter.order",
            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ] + leanStart, .when(configuration: .release))
]

/// utter's release link, by lld too: the static Foundation that `--static-swift-stdlib` links
/// (ArgumentParser's) calls `mktemp`, and GNU ld and gold print glibc's link-time warning about it
/// in every user's build (packaging/install-user); lld does not print such warnings. Relative
/// relocations packed, as sd_utter's, and `leanStart`.
let quietStaticLink: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] + leanStart,
        .when(configuration: .release))
]


let package = Package(
    name: "Utter",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sd_utter", targets: ["sd_utter"]),
        .executable(name: "utter", targets: ["utter"]),
        // Figures for bench/render --japanese.
        .executable(name: "JapaneseReadingBench", targets: ["JapaneseReadingBench"]),
        // The pure layers, for the fuzzers in Fuzz/.
        .library(name: "UtterPureLayers", targets: ["ModuleProtocol", "SSML", "Configuration", "Voices", "Playback", "Reading", "JSON", "Scenario", "Piper", "History"]),
        // Mandarin words for the voice (ICU), for its fuzzer in Fuzz/.
        .library(name: "ChineseReading", targets: ["ChineseReading"]),
        // Speech from any Swift program: `import UtterKit`.
        .library(name: "UtterKit", targets: ["UtterKit"]),
        // The Japanese reader, for its fuzzer in Fuzz/.
        .library(name: "JapaneseReading", targets: ["JapaneseReading", "JapaneseKana"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // C libraries, found through pkg-config (Debian: libespeak-ng-dev, libasound2-dev).
        .systemLibrary(
            name: "CEspeakNG", pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        // libsoxr's header: SoundFiles opens the library at run time (dlopen), the first time a
        // rate is converted. Debian: libsoxr-dev.
        .systemLibrary(name: "CSoxr", providers: [.apt(["libsoxr-dev"])]),
        // libsonic has no pkg-config file in Debian (libsonic-dev).
        .systemLibrary(name: "CSonic", providers: [.apt(["libsonic-dev"])]),
        .systemLibrary(
            name: "CSpeechd", pkgConfig: "speech-dispatcher",
            providers: [.apt(["libspeechd-dev"])]),
        // libpulse's headers are in the default include path and its module map links it: its
        // pkg-config file would only add -D_REENTRANT and -pthread, which SwiftPM refuses with a
        // warning in every build. Debian: libpulse-dev.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CICU", pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"])]),
        // ICU's transliterators (Han-Latin) and word breaks, for Chinese, opened at run time (dlopen):
        // only a process that reads Chinese maps ICU.
        .target(name: "CICUI18N"),
        // MeCab's header, the Japanese morphological analyser: JapaneseReading opens the library at
        // run time (dlopen). Debian's libmecab-dev has no pkg-config file.
        .systemLibrary(name: "CMeCab", providers: [.apt(["libmecab-dev"])]),
        // The PipeWire stream as plain C functions: SPA's pod builder and pw_loop's helpers are
        // inline functions and macros Swift cannot import. Only this C file sees libpipewire's
        // headers (Debian's libpipewire-0.3-dev), by their include folders: pkg-config's flags for
        // them add -D_REENTRANT, which SwiftPM refuses with a warning in every build. It opens
        // the library when the first PipeWire stream is made (dlopen), so no other process maps it.
        .target(
            name: "CPipeWireShims",
            cSettings: [.unsafeFlags(["-I/usr/include/pipewire-0.3", "-I/usr/include/spa-0.2"])]),

        // ONNX Runtime's C API as far as Utter uses it, declared from its documentation: the
        // library is opened at run time (OnnxRuntime), so the build needs none of it.
        .target(name: "COnnxRuntime"),

        // Linux interfaces Swift's Glibc module lacks (eventfd, signalfd, ppoll, thread names).
        .target(name: "CUtterShims"),
        // The only importer of CUtterShims: descriptors, eventfds, threads, locks, the clock.
        .target(name: "System", dependencies: ["CUtterShims"], swiftSettings: upcoming),

        // Pure layers: no I/O, no C, no Foundation.
        .target(name: "ModuleProtocol", swiftSettings: upcoming),
        .target(
            name: "SSML", dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: upcoming),
        .target(name: "Configuration", dependencies: ["ModuleProtocol"], swiftSettings: upcoming),
        .target(name: "Voices", swiftSettings: upcoming),
        .target(name: "Playback", dependencies: ["SSML"], swiftSettings: upcoming),
        // What the synth thread does to any engine's samples: gain, cut fades, full-scale PCM,
        // leading silence dropped.
        .target(name: "Samples", swiftSettings: upcoming),
        // The module's speech history as a bounded value, and what `utter history` says over its socket.
        .target(name: "History", swiftSettings: upcoming),
        // utter read's text: Markdown to readable text, the language guess, the reading session.
        .target(name: "Reading", swiftSettings: upcoming),
        // JSON read with each value's line kept, for messages that point at it, and written back.
        .target(name: "JSON", swiftSettings: upcoming),

        // Piper voices: the model's JSON, phoneme ids, the model edit that exposes phoneme
        // durations, and where words and marks fall in the samples.
        .target(name: "Piper", dependencies: ["JSON", "SSML"], swiftSettings: upcoming),

        // Sentences by ICU's rules and abbreviation lists, corrected for reading aloud.
        .target(name: "Sentences", dependencies: ["CICU"], swiftSettings: upcoming),

        // Japanese words and their kana from MeCab's morphemes: readings, numbers with counters.
        .target(name: "JapaneseKana", dependencies: ["SSML"], swiftSettings: upcoming),
        // MeCab's tagger with an IPA dictionary, as a TextReading for Japanese.
        .target(
            name: "JapaneseReading", dependencies: ["CMeCab", "JapaneseKana", "SSML", "System"],
            swiftSettings: upcoming),
        // Mandarin in Han characters as words of pinyin with tone numbers, for espeak-ng's pinyin voice.
        .target(name: "ChineseReading", dependencies: ["CICUI18N", "SSML"], swiftSettings: upcoming),

        // The scenario of `utter play`: its JSON checked, and the player's logic.
        .target(name: "Scenario", dependencies: ["JSON"], swiftSettings: upcoming),

        // I/O layers.
        .target(name: "RegularFiles", dependencies: ["System"], swiftSettings: upcoming),
        .target(name: "AudioSinks", dependencies: ["System"], swiftSettings: upcoming),
        // The audio stream core every backend plays from, C-free: the sample ring, the shared
        // render state, the hand-off of devices and streams, the render side's requests, fades and
        // clock, and StreamSink.
        .target(name: "AudioStream", dependencies: ["AudioSinks", "System"], swiftSettings: upcoming),
        // The ALSA backend: devices opened by name (alsa-lib), played by a render thread of its own.
        .target(name: "ALSAOutput", dependencies: ["CALSA", "AudioStream", "AudioSinks", "System"], swiftSettings: upcoming),
        // PulseAudio's native protocol (PulseAudio itself, or PipeWire's pipewire-pulse).
        .target(name: "PulseOutput", dependencies: ["CPulse", "AudioStream", "AudioSinks", "System"], swiftSettings: upcoming),
        // Playback through PipeWire's native API, on the stream render core.
        .target(
            name: "PipeWireOutput",
            dependencies: ["AudioStream", "AudioSinks", "System", "CPipeWireShims"],
            swiftSettings: upcoming),
        // The only user of COnnxRuntime: ONNX Runtime found and opened at run time, sessions, runs.
        .target(name: "OnnxRuntime", dependencies: ["COnnxRuntime", "System"], swiftSettings: upcoming),
        .target(
            name: "SoundFiles",
            dependencies: ["CSndFile", "CSoxr", "CSonic", "RegularFiles", "AudioSinks", "System"],
            swiftSettings: upcoming),
        .target(
            name: "Speech",
            dependencies: [
                "CEspeakNG", "AudioSinks", "Playback", "System", "SoundFiles", "RegularFiles", "SSML", "Voices",
                "OnnxRuntime", "Piper", "JapaneseReading", "ChineseReading", "Samples",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: upcoming),
        // The engine every front-end shares: the speech pipeline, the voice library, the job factory,
        // and the sound session, the one place a backend is chosen.
        .target(
            name: "UtterEngine",
            dependencies: [
                "Speech", "AudioSinks", "AudioStream", "ALSAOutput", "PulseOutput", "PipeWireOutput", "SoundFiles", "Playback", "SSML", "Voices",
                "Configuration", "ModuleProtocol", "RegularFiles", "System", "OnnxRuntime", "Piper",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        // The public Swift API, Speaker, on the engine.
        .target(
            name: "UtterKit",
            dependencies: [
                "UtterEngine", "Speech", "AudioSinks", "Playback", "SSML", "Voices", "Configuration", "ModuleProtocol", "System",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: upcoming),
        // The SSIP front-end: speech-dispatcher's module protocol over the engine.
        .target(
            name: "UtterModule",
            dependencies: [
                "UtterEngine", "ModuleProtocol", "SSML", "Configuration", "Voices", "System", "RegularFiles", "History",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "sd_utter",
            dependencies: ["UtterModule", "UtterKit", "System", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming, linkerSettings: everydayCodeFirst),

        // libzip (a NumPy .npz's members) and libcrypto (SHA-256), for voice packs from PyPI.
        // Debian: libzip-dev, libssl-dev. Only `utter voice add` links them; sd_utter reads no zip.
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The only users of CZip and CCrypto: a zip's members, SHA-256.
        .target(name: "Archives", dependencies: ["CZip", "CCrypto"], swiftSettings: upcoming),
        // Kokoro voice packs as pip installs them, assembled into a voice folder.
        .target(
            name: "VoicePacks", dependencies: ["Archives", "Piper", "System", "RegularFiles"],
            swiftSettings: upcoming),

        // The user's speech-dispatcher, reached as an SSIP client through libspeechd.
        .target(name: "SpeechDispatcherClient", dependencies: ["CSpeechd", "System"], swiftSettings: upcoming),
        .target(
            name: "UtterCLI",
            dependencies: [
                "UtterKit", "UtterEngine", "SpeechDispatcherClient", "Configuration", "RegularFiles",
                "System", "SSML",
                "Voices", "SoundFiles", "Reading", "Sentences", "JSON", "Scenario", "Piper", "OnnxRuntime", "JapaneseReading",
                "History", "VoicePacks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "utter",
            dependencies: ["UtterCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: upcoming, linkerSettings: quietStaticLink),

        .executableTarget(
            name: "JapaneseReadingBench", dependencies: ["JapaneseReading", "SSML", "System"],
            path: "Benchmarks/JapaneseReadingBench", swiftSettings: upcoming),

        // What the tests share: temporary folders, sound files, processes, seeded randomness.
        .target(name: "CTestShims", path: "Tests/CTestShims"),
        .target(
            name: "TestSupport",
            dependencies: [
                "CSndFile", "CTestShims", "OnnxRuntime", "SoundFiles", "System",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Tests/TestSupport",
            exclude: ["make_tiny_piper.py", "make_tiny_kokoro.py"], swiftSettings: upcoming),

        .testTarget(name: "ModuleProtocolTests", dependencies: ["ModuleProtocol"], swiftSettings: upcoming),
        .testTarget(name: "SSMLTests", dependencies: ["SSML"], swiftSettings: upcoming),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration"], swiftSettings: upcoming),
        .testTarget(name: "VoicesTests", dependencies: ["Voices"], swiftSettings: upcoming),
        .testTarget(name: "PiperTests", dependencies: ["Piper", "SSML"], swiftSettings: upcoming),
        .testTarget(name: "ReadingTests", dependencies: ["Reading"], swiftSettings: upcoming),
        .testTarget(name: "HistoryTests", dependencies: ["History"], swiftSettings: upcoming),
        .testTarget(name: "JapaneseKanaTests", dependencies: ["JapaneseKana", "SSML"], swiftSettings: upcoming),
        .testTarget(
            name: "JapaneseReadingTests", dependencies: ["JapaneseReading", "JapaneseKana", "SSML", "TestSupport"],
            swiftSettings: upcoming),
        .testTarget(name: "SentencesTests", dependencies: ["Sentences"], swiftSettings: upcoming),
        .testTarget(
            name: "ChineseReadingTests", dependencies: ["ChineseReading", "SSML", "TestSupport"],
            exclude: ["Sentences.tsv"], swiftSettings: upcoming),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "SSML"], swiftSettings: upcoming),
        .testTarget(name: "SamplesTests", dependencies: ["Samples"], swiftSettings: upcoming),
        .testTarget(name: "SystemTests", dependencies: ["System", "TestSupport"], swiftSettings: upcoming),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "RegularFilesTests", dependencies: ["RegularFiles", "System", "TestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "AudioSinksTests", dependencies: ["AudioSinks", "System", "TestSupport"],
            swiftSettings: upcoming),
        // libsndfile and libsoxr: files written and read back, rates converted; libsonic's speed changes.
        .testTarget(
            name: "SoundFilesTests", dependencies: ["SoundFiles", "AudioSinks", "CSndFile", "TestSupport"],
            swiftSettings: upcoming),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "JSON", "TestSupport"], swiftSettings: upcoming),
        .testTarget(name: "AudioStreamTests", dependencies: ["AudioStream"], swiftSettings: upcoming),
        .testTarget(
            name: "ALSAOutputTests", dependencies: ["ALSAOutput", "AudioStream", "AudioSinks", "System", "TestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "UtterKitTests", dependencies: ["UtterKit", "TestSupport"], swiftSettings: upcoming),
        // The engine the front ends share: jobs made from settings, the pipeline on its sinks.
        .testTarget(
            name: "UtterEngineTests",
            dependencies: [
                "UtterEngine", "TestSupport", "System", "Configuration", "ModuleProtocol", "Voices", "Speech", "SSML",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PulseOutputTests", dependencies: ["PulseOutput", "AudioStream", "AudioSinks", "System", "TestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PipeWireOutputTests",
            dependencies: ["PipeWireOutput", "ALSAOutput", "AudioStream", "AudioSinks", "System", "TestSupport"],
            swiftSettings: upcoming),
        // The speech pipeline in process: every sample it renders, through a real ALSA device.
        .testTarget(
            name: "SpeechTests",
            dependencies: [
                "Speech", "ALSAOutput", "Playback", "SSML", "System", "Voices", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        // sd_utter as speech-dispatcher runs it: a process on pipes, heard through ALSA devices and sound servers.
        .testTarget(
            name: "UtterModuleTests",
            dependencies: ["sd_utter", "utter", "UtterModule", "History", "System", "TestSupport", "Piper"],
            swiftSettings: upcoming),
        // libspeechd's client without a server, and with a private speech-dispatcher whose module is sd_utter.
        .testTarget(
            name: "SpeechDispatcherClientTests", dependencies: ["SpeechDispatcherClient", "sd_utter", "TestSupport"],
            swiftSettings: upcoming),
        // The utter command: say, read, play, follow, voice and setup, run as a user runs them.
        .testTarget(
            name: "UtterCLITests",
            dependencies: [
                "utter", "sd_utter", "UtterCLI", "UtterKit", "JapaneseReading", "OnnxRuntime", "System", "TestSupport",
                "History", "Piper",
            ],
            exclude: ["Clients"],
            swiftSettings: upcoming),
        // ONNX Runtime as Utter opens and runs it, on tiny models made by Debian's python3-onnx.
        .testTarget(
            name: "OnnxRuntimeTests", dependencies: ["OnnxRuntime", "Piper", "System", "TestSupport"],
            swiftSettings: upcoming),
        // Neural voices: need ONNX Runtime (PyPI's onnxruntime) and Debian's python3-onnx.
        .testTarget(
            name: "NeuralTests",
            dependencies: [
                "OnnxRuntime", "Piper", "Speech", "AudioSinks", "Playback", "SSML", "System", "Voices", "TestSupport",
                "UtterEngine",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "ServerTests", dependencies: ["sd_utter", "utter", "TestSupport", "OnnxRuntime", "System"],
            exclude: ["Clients"],
            swiftSettings: upcoming),
    ]
)
