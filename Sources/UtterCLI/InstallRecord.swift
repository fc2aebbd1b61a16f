/// What `utter install --user` did, step by step, so that `utter uninstall --user` undoes exactly
/// that: one step per line, tab-separated, in the order they were done.
struct InstallRecord: Equatable {
    enum Step: Equatable {
        /// A folder that did not exist.
        case createdFolder(String)
        /// A file that did not exist. `written`, for a file the user may edit, keeps a copy of
        /// what install wrote, so that uninstall can tell whether the user changed it since.
        case createdFile(String, written: String?)
        /// A file that existed; its earlier content is kept at `saved`.
        case replacedFile(String, saved: String, written: String?)
    }

    var steps: [Step] = []

    init(steps: [Step] = []) {
        self.steps = steps
    }

    /// Reads `text`; nil when a line is not a step (the record was damaged).
    init?(parsing text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func optional(_ field: String) -> String? { field.isEmpty ? nil : field }
            switch (fields.first, fields.count) {
            case ("folder", 2): steps.append(.createdFolder(fields[1]))
            case ("file", 3): steps.append(.createdFile(fields[1], written: optional(fields[2])))
            case ("replaced", 4):
                steps.append(.replacedFile(fields[1], saved: fields[2], written: optional(fields[3])))
            default: return nil
            }
        }
    }

    var text: String {
        steps.map { step in
            switch step {
            case .createdFolder(let path): "folder\t\(path)\n"
            case .createdFile(let path, let written): "file\t\(path)\t\(written ?? "")\n"
            case .replacedFile(let path, let saved, let written): "replaced\t\(path)\t\(saved)\t\(written ?? "")\n"
            }
        }.joined()
    }
}
