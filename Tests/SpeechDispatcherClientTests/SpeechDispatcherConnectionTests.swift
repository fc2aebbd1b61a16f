import Glibc
import SpeechDispatcherClient
import TestSupport
import Testing

/// Runs `body` with libspeechd's address for this user set to `address` (`SPEECHD_ADDRESS`, which
/// libspeechd reads at each connection), then puts the variable back: only for what reads it
/// there and returns at once, since the environment is the whole test process's.
private func withAddress(_ address: String, _ body: () throws -> Void) rethrows {
    let previous = getenv("SPEECHD_ADDRESS").map { String(cString: $0) }
    setenv("SPEECHD_ADDRESS", address, 1)
    defer {
        if let previous { setenv("SPEECHD_ADDRESS", previous, 1) } else { unsetenv("SPEECHD_ADDRESS") }
    }
    try body()
}

/// The Unix socket of `address` as libspeechd writes it (`unix_socket:PATH`).
private func socketPath(_ address: String) throws -> String {
    try #require(address.hasPrefix("unix_socket:") ? String(address.dropFirst("unix_socket:".count)) : nil)
}

/// Every event of one message, up to its last; none when it was refused.
private func events(_ stream: AsyncStream<SpeechDispatcherEvent>?) async -> [SpeechDispatcherEvent] {
    guard let stream else { return [] }
    var events: [SpeechDispatcherEvent] = []
    for await event in stream { events.append(event) }
    return events
}

/// The user's speech-dispatcher as an SSIP client reaches it through libspeechd: where it is
/// looked for, what is said when it is not there, and a private server with sd_utter as its one
/// module. Serialized: the address is the process's.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct SpeechDispatcherConnectionTests {
    @Test func `with no server the connection says which socket it found nothing at`() async {
        let folder = TemporaryFolder()
        let socket = folder.file("speechd.sock")
        withAddress("unix_socket:\(socket)") {
            #expect(SpeechDispatcherConnection.defaultSocketPath == socket)
            let error = #expect(throws: SpeechDispatcherError.self) {
                _ = try SpeechDispatcherConnection(clientName: "utter-test", startingServer: false)
            }
            #expect(error?.description == "no socket at \(socket)")
        }
        withAddress("inet_socket:127.0.0.1:6560") {
            #expect(SpeechDispatcherConnection.defaultSocketPath == nil, "not a Unix socket")
        }
        // A socket given is the one looked at, whatever the environment says.
        let given = folder.file("given.sock")
        let refused = #expect(throws: SpeechDispatcherError.self) {
            _ = try SpeechDispatcherConnection(clientName: "utter-test", startingServer: false, socket: given)
        }
        #expect(refused?.description == "no socket at \(given)")
    }

    @Test func `a private server lists its module, speaks a message to its end, and reports SSML marks in order`()
        async throws
    {
        try await withServer("client", device: .unpaced) { rig in
            let socket = try socketPath(try #require(rig.environment["SPEECHD_ADDRESS"]))
            do {
                let connection = try SpeechDispatcherConnection(
                    clientName: "utter-test", startingServer: false, socket: socket)
                #expect(connection.outputModules() == ["utter"])
                #expect(connection.speak("Hello.", module: "utter", timeout: 60))
                var settings = SpeechDispatcherSettings()
                settings.module = "utter"
                settings.language = "en-US"
                let marked = connection.say(
                    ssml: "<speak>One <mark name=\"a\"/>two <mark name=\"b\"/>three.</speak>", settings: settings)
                #expect(await events(marked) == [.began, .mark("a"), .mark("b"), .ended])
            }
            await rig.shutdown()
            let samples = try await rig.capturedSamples()
            #expect(rootMeanSquare(samples) > 300, "both messages were heard: \(samples.count) samples")
        }
    }

    @Test func `a cancel ends the message playing with cancelled, and the next one is spoken`() async throws {
        try await withServer("client-cancel", device: .paced) { rig in
            let socket = try socketPath(try #require(rig.environment["SPEECHD_ADDRESS"]))
            do {
                let connection = try SpeechDispatcherConnection(
                    clientName: "utter-test", startingServer: false, socket: socket)
                var settings = SpeechDispatcherSettings()
                settings.module = "utter"
                let long = String(repeating: "This sentence is one of many, spoken in real time. ", count: 20)
                let stream = try #require(connection.say(ssml: "<speak>\(long)</speak>", settings: settings))
                var iterator = stream.makeAsyncIterator()
                #expect(await iterator.next() == .began)
                connection.cancel()
                var rest: [SpeechDispatcherEvent] = []
                while let event = await iterator.next() { rest.append(event) }
                #expect(rest == [.cancelled])
                let after = connection.say(ssml: "<speak>After.</speak>", settings: settings)
                #expect(await events(after) == [.began, .ended])
            }
        }
    }
}
