import Glibc
import System
import TestSupport
import Testing

/// Both ends of a new pipe, owned; close-on-exec, so that no child another test spawns holds one open.
private struct PipeEnds: ~Copyable {
    let read: FileDescriptor
    let write: FileDescriptor

    init() throws {
        let ends = try Pipe.closeOnExec().get()
        read = FileDescriptor(taking: ends.read)
        write = FileDescriptor(taking: ends.write)
    }
}

/// Seconds `body` took.
private func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return monotonicSeconds() - start
}

/// Owned descriptors, polled with their readiness as the control thread sees it, and eventfd
/// wake-ups.
///
/// A closed descriptor is seen from the other end of a pipe: its number is free for any test
/// running beside this one to reuse at once, so asking the number itself proves nothing.
@Suite struct DescriptorTests {
    @Test func `a descriptor closes where its value ends, or at close(), and the reader sees the end`() throws {
        let ends = try Pipe.closeOnExec().get()
        let reader = FileDescriptor(taking: ends.read)
        do {
            let writer = FileDescriptor(taking: ends.write)
            var byte: UInt8 = 7
            #expect(write(writer.rawValue, &byte, 1) == 1)
        }
        var bytes = [UInt8](repeating: 0, count: 4)
        #expect(read(reader.rawValue, &bytes, 4) == 1 && bytes[0] == 7)
        #expect(read(reader.rawValue, &bytes, 4) == 0, "end of file: the write end is closed")

        let second = try PipeEnds()
        let writer = second.write
        writer.close()
        #expect(try poll([second.read.rawValue], timeout: 0).get() == [true], "a hang-up is readable")
        #expect(read(second.read.rawValue, &bytes, 4) == 0)
    }

    @Test func `poll waits its timeout in nanoseconds when nothing is ready, and sees a writable end at once`() throws {
        let pipe = try PipeEnds()
        var ready: [Bool] = []
        let waited = try seconds { ready = try poll([pipe.read.rawValue], timeout: 30_000_000).get() }
        #expect(ready == [false])
        #expect(waited >= 0.03 && waited < 5, "\(waited) s")
        let both = try poll(
            [PollRequest(pipe.read.rawValue), PollRequest(pipe.write.rawValue, waitsForWritable: true)],
            timeout: nil
        ).get()
        #expect(both == [false, true])
    }

    @Test func `an eventfd signalled from another thread wakes a poll, and its signals coalesce`() throws {
        let wake = try EventFD()
        #expect(!wake.reset(), "not signalled yet")
        let signaller = try NamedThread(name: "signaller") {
            MonotonicClock.sleep(nanoseconds: 50_000_000)
            wake.signal()
        }
        let ready = try poll([wake.rawValue], timeout: 10_000_000_000).get()
        #expect(ready == [true])
        #expect(signaller.join(until: MonotonicClock.now + 10_000_000_000))
        #expect(wake.reset())
        #expect(try poll([wake.rawValue], timeout: 0).get() == [false], "reset")
        for _ in 0..<3 { wake.signal() }
        #expect(wake.reset() && !wake.reset(), "three signals, one wake")
    }

    @Test func `a blocking eventfd's reset sleeps until another thread signals it`() throws {
        let wake = try EventFD(blocking: true)
        let signalled = Locked(false)
        let signaller = try NamedThread(name: "signaller") {
            MonotonicClock.sleep(nanoseconds: 50_000_000)
            signalled.withLock { $0 = true }
            wake.signal()
        }
        #expect(wake.reset())
        #expect(signalled.withLock { $0 }, "woken by the signal, not before it")
        #expect(signaller.join(until: MonotonicClock.now + 10_000_000_000))
    }
}

/// SIGINT and SIGTERM read from a descriptor, as the module's poll loop reads them.
///
/// The signals are sent to this thread, not to the process: another thread of the test runner that
/// does not block them would take a process-wide one, and die of it. The thread's mask is put back
/// once nothing is pending for it.
@Suite struct SignalFDTests {
    @Test func `signals blocked by the descriptor are read from it in order, and then none is pending`() throws {
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &previous)
        let signals = try #require(SignalFD(blocking: SignalFD.termination))
        defer {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in SignalFD.termination { sigaddset(&set, signal) }
            var none = timespec()
            while sigtimedwait(&set, nil, &none) > 0 {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        #expect(signals.take() == nil)
        #expect(try poll([signals.rawValue], timeout: 0).get() == [false])
        pthread_kill(pthread_self(), SIGTERM)
        pthread_kill(pthread_self(), SIGINT)
        #expect(try poll([signals.rawValue], timeout: 10_000_000_000).get() == [true])
        // Standard signals come lowest number first.
        #expect(signals.take() == SIGINT)
        #expect(signals.take() == SIGTERM)
        #expect(signals.take() == nil)
    }
}

/// Threads with names, joined with a deadline.
@Suite struct NamedThreadTests {
    @Test func `a thread runs under its name, cut to the 15 bytes Linux keeps`() throws {
        let names = Locked<[String]>([])
        for name in ["utter-render", "a-thread-name-longer-than-fifteen"] {
            let thread = try NamedThread(name: name) {
                let comm = readText("/proc/thread-self/comm")
                names.withLock { $0.append(comm) }
            }
            #expect(thread.join(until: MonotonicClock.now + 10_000_000_000))
        }
        #expect(names.withLock { $0 } == ["utter-render\n", "a-thread-name-l\n"])
    }

    @Test func `a join with a deadline gives up while the thread is held, and succeeds once it ends`() throws {
        let release = try EventFD(blocking: true)
        let thread = try NamedThread(name: "held") { release.reset() }
        var joined = true
        let waited = seconds { joined = thread.join(until: MonotonicClock.now + 50_000_000) }
        #expect(!joined, "still held")
        #expect(waited >= 0.04 && waited < 5, "gave up at its deadline: \(waited) s")
        release.signal()
        #expect(thread.join(until: MonotonicClock.now + 10_000_000_000))
        #expect(thread.join(until: 0), "joined once, ended for good")
    }

    @Test func `a thread let go ends by itself and is never joined`() throws {
        let release = try EventFD(blocking: true)
        let ended = try EventFD(blocking: true)
        let thread = try NamedThread(name: "let-go") {
            release.reset()
            ended.signal()
        }
        #expect(!thread.join(until: MonotonicClock.now + 10_000_000))
        thread.detach()
        #expect(!thread.join(until: MonotonicClock.now + 10_000_000), "a thread let go is not joined")
        release.signal()
        var ready = pollfd(fd: ended.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1, "it ran to its end")
        #expect(!thread.join(until: 0), "nor after it ended: its owner may not free what it used")
        #expect(thread.setRealTimePriority(1) == Errno(ESRCH))
    }
}
