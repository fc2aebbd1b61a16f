import Piper

/// Reads arbitrary bytes as a NumPy `.npy` array (a Kokoro voice's style vectors): it must never
/// trap, and an array that reads holds exactly as many values as its shape says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    switch NumpyArray.read(UnsafeBufferPointer(start: data, count: size)) {
    case .failure(let problem):
        precondition(!problem.description.isEmpty)
    case .success(let array):
        precondition(array.shape.allSatisfy { $0 >= 0 })
        precondition(array.values.count == array.shape.reduce(1, *))
        precondition(array.values.count * 4 <= size)
    }
    return 0
}
