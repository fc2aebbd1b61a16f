import CUtterShims
import Glibc

/// A shared library opened at run time (`dlopen`), for a library the build does not link.
/// It stays loaded for the process's life: code it started (thread pools) may outlive its users.
public struct DynamicLibrary: @unchecked Sendable {
    // @unchecked: the handle is only passed to dlsym, which is thread-safe.
    private let handle: UnsafeMutableRawPointer
    /// The path or name it was opened by.
    public let path: String

    /// Opens `path` (a path, or a name the dynamic linker searches for); the error is dlerror's text.
    public static func open(_ path: String) -> Result<DynamicLibrary, DynamicLibraryError> {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(DynamicLibraryError(message: dlerror().map { String(cString: $0) } ?? "dlopen failed"))
        }
        return .success(DynamicLibrary(handle: handle, path: path))
    }

    /// The file the library holding `address` was loaded from (a name the dynamic linker found,
    /// or one already loaded under that name, made a path).
    public static func file(containing address: UnsafeRawPointer) -> String? {
        CUtterShims_libraryFile(address).map { String(cString: $0) }
    }

    /// The address of `symbol`, or nil when the library has none.
    public func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }
}

/// Why a library could not be opened, as the dynamic linker says it.
public struct DynamicLibraryError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
