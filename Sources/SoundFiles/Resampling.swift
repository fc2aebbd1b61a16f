internal import CSoxr
internal import System

/// Sample rate conversion of a whole stretch of samples at once (libsoxr's high quality).
public enum Resampling {
    /// `samples` at `inputRate` converted to `outputRate`; nil when libsoxr fails.
    public static func convert(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float]? {
        try? resample(samples, from: inputRate, to: outputRate)
    }

    /// `samples` at `inputRate` converted to `outputRate`, or why libsoxr could not.
    static func resample(
        _ samples: [Float], from inputRate: Int, to outputRate: Int
    ) throws(ResamplingError) -> [Float] {
        guard inputRate != outputRate else { return samples }
        let oneShot = try SoxrLibrary.oneShot.get()
        let capacity = Int((Double(samples.count) * Double(outputRate) / Double(inputRate)).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        var produced = 0
        let error = samples.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                // Float mono in and out, the library's default (high) quality.
                oneShot(
                    Double(inputRate), Double(outputRate), 1, source.baseAddress, source.count, nil,
                    destination.baseAddress, destination.count, &produced, nil, nil, nil)
            }
        }
        if let error { throw ResamplingError(message: String(cString: error)) }
        return Array(output.prefix(produced))
    }
}

/// Why a conversion failed, in libsoxr's or the dynamic linker's words.
struct ResamplingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// libsoxr's `soxr_oneshot`, from `libsoxr.so.0` opened the first time a conversion is asked
/// for: linked, libsoxr brought GNU OpenMP's runtime (libgomp) into every process, 0.3 MiB
/// resident, while most modules never convert a rate.
private enum SoxrLibrary {
    typealias OneShot = @convention(c) (
        Double, Double, UInt32, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int,
        UnsafeMutablePointer<Int>?, UnsafePointer<soxr_io_spec_t>?, UnsafePointer<soxr_quality_spec_t>?,
        UnsafePointer<soxr_runtime_spec_t>?
    ) -> soxr_error_t?

    /// The library's file name, as Debian's libsoxr0 installs it.
    static let file = "libsoxr.so.0"

    /// Loaded once; the library stays loaded.
    static let oneShot: Result<OneShot, ResamplingError> = DynamicLibrary.open(file)
        .mapError { ResamplingError(message: "\($0)") }
        .flatMap { library in
            guard let address = library.symbol("soxr_oneshot") else {
                return .failure(ResamplingError(message: "\(file) has no soxr_oneshot"))
            }
            return .success(unsafeBitCast(address, to: OneShot.self))
        }
}
