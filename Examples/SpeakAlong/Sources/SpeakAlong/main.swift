import UtterKit

let sentence = "Utter speaks from any Swift program, word by word."

func speak(to output: Speaker.Output) async throws {
    let speaker = try Speaker(output: output)  // one Speaker at a time in a process
    var utterance = Utterance(text: sentence)
    utterance.voice = "English (Great Britain)"
    for await event in speaker.speak(utterance) {
        switch event {
        case .word(let range): print(sentence[range], terminator: " ")
        case .finished: print()
        default: break
        }
    }
}

try await speak(to: .device())  // aloud, each word printed as it is heard
try await speak(to: .file(path: "sentence.wav"))  // the same sentence, rendered as fast as it goes
