import Piper

/// Edits arbitrary bytes as an ONNX model: it must never trap or read out of bounds; an edit
/// keeps every byte of the model and adds only the durations output, and editing again changes
/// nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .success(let edit) = ModelEdit.exposingDurations(bytes) else { return 0 }
    guard let durations = edit.durationsOutput else {
        precondition(edit.model == bytes)
        return 0
    }
    precondition(edit.outputs.last == durations || edit.outputs.contains(durations))
    precondition(edit.model.count >= bytes.count)
    guard case .success(let again) = ModelEdit.exposingDurations(edit.model) else {
        preconditionFailure("the edited model does not read")
    }
    precondition(again.model == edit.model && again.durationsOutput == durations)
    precondition(again.inputs == edit.inputs && again.outputs == edit.outputs)
    return 0
}
