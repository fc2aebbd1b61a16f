internal import CMeCab
internal import System

/// MeCab's functions, from `libmecab.so.2` opened at run time: the module and `utter` link no
/// MeCab, so a process that never reads Japanese maps none of it (it cost every `sd_utter` start
/// about 1 MiB of resident memory linked).
struct MeCabLibrary: Sendable {
    typealias ModelNew = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> OpaquePointer?
    typealias Handle = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias Destroy = @convention(c) (OpaquePointer?) -> Void
    typealias StringError = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias SetSentence = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Void
    typealias Parse = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias FirstNode = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<mecab_node_t>?

    let modelNew: ModelNew
    let modelNewTagger: Handle
    let modelNewLattice: Handle
    let modelDestroy: Destroy
    let destroy: Destroy
    let latticeDestroy: Destroy
    let strerror: StringError
    let latticeSetSentence: SetSentence
    let parseLattice: Parse
    let latticeBOSNode: FirstNode

    /// The library's file name, as Debian's libmecab2 installs it.
    static let file = "libmecab.so.2"

    /// The functions, loaded the first time they are asked for; the library stays loaded.
    static let shared: Result<MeCabLibrary, MeCabLibraryError> = DynamicLibrary.open(file)
        .mapError { MeCabLibraryError(message: "\($0)") }
        .flatMap { library in
        func function<F>(_ name: String, _ type: F.Type) throws(MeCabLibraryError) -> F {
            guard let address = library.symbol(name) else {
                throw MeCabLibraryError(message: "\(file) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        return Result { () throws(MeCabLibraryError) in
            MeCabLibrary(
                modelNew: try function("mecab_model_new", ModelNew.self),
                modelNewTagger: try function("mecab_model_new_tagger", Handle.self),
                modelNewLattice: try function("mecab_model_new_lattice", Handle.self),
                modelDestroy: try function("mecab_model_destroy", Destroy.self),
                destroy: try function("mecab_destroy", Destroy.self),
                latticeDestroy: try function("mecab_lattice_destroy", Destroy.self),
                strerror: try function("mecab_strerror", StringError.self),
                latticeSetSentence: try function("mecab_lattice_set_sentence2", SetSentence.self),
                parseLattice: try function("mecab_parse_lattice", Parse.self),
                latticeBOSNode: try function("mecab_lattice_get_bos_node", FirstNode.self))
        }
    }
}

/// Why MeCab's library could not be used, in the dynamic linker's words.
struct MeCabLibraryError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
