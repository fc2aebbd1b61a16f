import Glibc
import TestSupport
import Testing

/// The shared objects mapped into the module's process, by file name.
private func mappedLibraries(_ module: ModuleProcess) -> Set<String> {
    let maps = String(decoding: readFile("/proc/\(module.pid)/maps") ?? [], as: UTF8.self)
    return Set(
        maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.flatMap {
                $0.hasPrefix("/") ? String($0.split(separator: "/").last!) : nil
            }
        })
}

private func mapsPipeWire(_ module: ModuleProcess) -> Bool {
    mappedLibraries(module).contains { $0.hasPrefix("libpipewire-0.3.so") }
}

/// libpipewire is opened when a PipeWire stream is made, libsoxr (with GNU OpenMP's runtime)
/// when a sound's rate is converted: every other module leaves their pages alone.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ClientLibraryTests {
    @Test func `a module playing speech through ALSA maps neither PipeWire's library nor libsoxr until a rate is converted`()
        throws
    {
        let rig = CaptureRig()
        mkdir(rig.folder + "/icons", 0o755)
        let tone = (0..<4410).map { Int16(8000 * sin(2 * Double.pi * 441 * Double($0) / 44100)) }
        #expect(SoundFileContents.writeWAV(tone, sampleRate: 44100, to: rig.folder + "/icons/tone.wav"))
        writeFile(rig.folder + "/utter.conf", "SoundIconFolder \"\(rig.folder)/icons\"\n")
        let module = try startModule(rig, configurationPath: rig.folder + "/utter.conf")
        speak(module, "<speak>Nothing here needs PipeWire or a rate conversion.</speak>")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.samples().contains { abs(Int32($0)) > 1000 }, "the sentence was played")
        let libraries = mappedLibraries(module)
        #expect(libraries.contains { $0.hasPrefix("libasound.so") }, "the maps are read: \(libraries.sorted())")
        for library in ["libpipewire-0.3.so", "libsoxr.so", "libgomp.so"] {
            #expect(!libraries.contains { $0.hasPrefix(library) }, "\(library) mapped: \(libraries.sorted())")
        }
        // A 44.1 kHz sound icon is converted to the module's 22,050 Hz: now libsoxr is needed.
        speak(module, "tone.wav", command: "SOUND_ICON")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(mappedLibraries(module).contains { $0.hasPrefix("libsoxr.so") })
        #expect(!mapsPipeWire(module))
        #expect(module.quit() == 0)
    }

    @Test(arguments: [PlaybackPath.pulse, .pipewire])
    func `on a PipeWire server only the PipeWire backend maps PipeWire's client library`(path: PlaybackPath) throws {
        let rig = CaptureRig()
        let server = try PrivateSoundServer(runtime: rig.folder + "/pulse", kind: .pipeWire)
        let module = try startPacedModule(rig, pulse: server, configuration: "", path: path)
        speak(module, "<speak>Which library plays this?</speak>")
        #expect(module.expect("702 END\n", within: 30) == "701 BEGIN\n702 END\n")
        #expect(mapsPipeWire(module) == (path == .pipewire), "mapped: \(mappedLibraries(module).sorted())")
        #expect(module.quit() == 0)
    }
}
