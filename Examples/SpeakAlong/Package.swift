// swift-tools-version: 6.1
// A program outside Utter's package that speaks through UtterKit, as any Swift program would.
import PackageDescription

let package = Package(
    name: "SpeakAlong",
    dependencies: [.package(name: "Utter", path: "../..")],
    targets: [
        .executableTarget(name: "SpeakAlong", dependencies: [.product(name: "UtterKit", package: "Utter")])
    ]
)
