import History
import System

/// `utter history`'s side of the module's history socket.
enum HistoryClient {
    /// A module that answered, and what it listed.
    struct Module {
        var path: String
        var pid: Int32
        var entries: [HistoryEntry]

        /// Asks the module to speak entry `number` again; the entry it speaks.
        func replay(_ number: Int) throws -> HistoryEntry {
            switch try HistoryClient.ask(.replay(number), at: path) {
            case .entries(let entries) where entries.count == 1: return entries[0]
            case .entries: throw UtterError("The Utter module at \(path) gave an answer this utter cannot read.")
            case .refused(let reason): throw UtterError(reason)
            }
        }
    }

    /// How long an answer may take: the module answers between two turns of its control loop.
    static let timeoutMilliseconds: Int32 = 5000

    static func outOfRange(_ number: Int, count: Int) -> String {
        count == 0 ? "Nothing has been said yet." : "There is no message \(number): the history holds 1 to \(count)."
    }

    /// The module that spoke last, of those whose sockets answer; why there is none otherwise.
    static func latestModule() throws -> Module {
        guard let runtimeFolder = Environment.value("XDG_RUNTIME_DIR"), !runtimeFolder.isEmpty else {
            throw UtterError(
                "XDG_RUNTIME_DIR is not set, so there is no history socket to find (a login session sets it).")
        }
        let folder = runtimeFolder + "/utter"
        let names = (try? FileSystem.entries(of: folder)) ?? []
        var modules: [Module] = []
        var failures: [String] = []
        for name in names.sorted() where name.hasPrefix("history-") && name.hasSuffix(".socket") {
            let path = folder + "/" + name
            let pid = Int32(name.dropFirst("history-".count).dropLast(".socket".count)) ?? 0
            do {
                switch try ask(.list, at: path) {
                case .entries(let entries): modules.append(Module(path: path, pid: pid, entries: entries))
                case .refused(let reason): failures.append("\(path): \(reason)")
                }
            } catch let error as Errno where error == .connectionRefused || error == .noSuchFile {
                continue  // left by a module that is gone
            } catch {
                failures.append("\(path): \(error)")
            }
        }
        if let latest = modules.max(by: { ($0.entries.first?.time ?? 0) < ($1.entries.first?.time ?? 0) }) {
            return latest
        }
        if !failures.isEmpty {
            throw UtterError("No Utter module answered: \(failures.joined(separator: "; ")).")
        }
        let running = RunningProcess.owned(by: CurrentProcess.userID).contains {
            $0.arguments.first?.split(separator: "/").last == "sd_utter"
        }
        if running {
            throw UtterError(
                "The running Utter module keeps no history: utter.conf sets HistorySize 0, or speech-dispatcher started it without XDG_RUNTIME_DIR."
            )
        }
        throw UtterError("No Utter module is running: speech-dispatcher starts it when something speaks with it.")
    }

    /// Sends `request` to the socket at `path` and reads the whole answer.
    static func ask(_ request: HistoryRequest, at path: String) throws -> HistoryReply {
        let socket = try LocalSocket.connected(to: path, timeoutMilliseconds: timeoutMilliseconds)
        var text = request.encoded
        if let error = text.withUTF8({ socket.sendAll(UnsafeRawBufferPointer($0)) }) { throw error }
        let bytes: [UInt8]
        switch socket.receiveAll(limit: 64 << 20) {
        case .success(let read): bytes = read
        case .failure(let error) where error.isTransient:
            throw UtterError("The Utter module at \(path) did not answer within \(timeoutMilliseconds / 1000) seconds.")
        case .failure(let error): throw error
        }
        guard let reply = HistoryReply(String(decoding: bytes, as: UTF8.self)) else {
            throw UtterError("The Utter module at \(path) gave an answer this utter cannot read.")
        }
        return reply
    }
}
