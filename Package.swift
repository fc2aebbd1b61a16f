// swift-tools-version: 6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Utter",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sd_utter", targets: ["sd_utter"]),
        .executable(name: "utter", targets: ["utter"]),
        // The pure layers, for the fuzzers in Fuzz/.
        .library(name: "UtterPureLayers", targets: ["ModuleProtocol", "SSML", "Configuration", "Voices"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .systemLibrary(
            name: "CSoxr", pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"])]),

        // Linux interfaces Swift's Glibc module lacks (eventfd).
        .target(name: "CUtterShims"),

        // Pure layers: no I/O, no C, no Foundation.
        .target(name: "ModuleProtocol", swiftSettings: upcoming),
        .target(name: "SSML", swiftSettings: upcoming),
        .target(name: "Configuration", swiftSettings: upcoming),
        .target(name: "Voices", swiftSettings: upcoming),

        // I/O layers.
        .target(name: "Locking", swiftSettings: upcoming),
        .target(name: "RegularFiles", swiftSettings: upcoming),
        .target(name: "AudioOutput", dependencies: ["CALSA", "CUtterShims", "Locking"], swiftSettings: upcoming),
        .target(name: "SoundFiles", dependencies: ["CSndFile", "CSoxr", "RegularFiles"], swiftSettings: upcoming),
        .target(
            name: "Speech",
            dependencies: [
                "CEspeakNG", "CUtterShims", "AudioOutput", "Locking", "SoundFiles", "SSML", "Voices",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .target(
            name: "UtterModule",
            dependencies: [
                "ModuleProtocol", "SSML", "Configuration", "Voices", "AudioOutput", "Speech", "CUtterShims", "Locking",
                "RegularFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "sd_utter",
            dependencies: ["UtterModule", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming),

        .target(
            name: "UtterCLI",
            dependencies: [
                "UtterModule", "Configuration", "SSML", "Voices", "Speech", "AudioOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "utter",
            dependencies: ["UtterCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: upcoming),

        .testTarget(name: "ModuleProtocolTests", dependencies: ["ModuleProtocol"], swiftSettings: upcoming),
        .testTarget(name: "SSMLTests", dependencies: ["SSML"], swiftSettings: upcoming),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration"], swiftSettings: upcoming),
        .testTarget(name: "VoicesTests", dependencies: ["Voices"], swiftSettings: upcoming),
        .testTarget(name: "AudioOutputTests", dependencies: ["AudioOutput"], swiftSettings: upcoming),
        .testTarget(
            name: "ModuleTests",
            dependencies: [
                "sd_utter", "utter", "UtterModule", "Speech", "AudioOutput", "CUtterShims", "Voices",
                "ModuleProtocol", "Configuration", "SSML",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "ServerTests", dependencies: ["sd_utter"], exclude: ["Clients"],
            swiftSettings: upcoming),
    ]
)
