import Glibc
import TestSupport
import Testing

/// The shared objects mapped into the module's process, by file name.
private func mappedLibraries(_ module: ModuleProcess) -> Set<String> {
    let maps = readText("/proc/\(module.pid)/maps")
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

/// A 0.1 s tone at 44.1 kHz, `tone.wav`, in a sound icon folder that `utter.conf` names: playing
/// it at the module's 22,050 Hz needs libsoxr.
private func writeIconNeedingResampling(_ rig: borrowing CaptureRig) {
    mkdir(rig.folder + "/icons", 0o755)
    let tone = TestSupport.tone(frequency: 441, seconds: 0.1, amplitude: 8000, sampleRate: 44100)
    #expect(SoundFileContents.writeWAV(tone, sampleRate: 44100, to: rig.folder + "/icons/tone.wav"))
    writeFile(rig.folder + "/utter.conf", "SoundIconFolder \"\(rig.folder)/icons\"\n")
}

/// libpipewire is opened when a PipeWire stream is made, libsoxr (with GNU OpenMP's runtime)
/// when a sound's rate is converted: every other module leaves their pages alone.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ClientLibraryTests {
    @Test func `a module playing speech through ALSA maps neither PipeWire's library nor libsoxr until a rate is converted`()
        throws
    {
        let rig = CaptureRig()
        writeIconNeedingResampling(rig)
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

/// A folder holding a file named `name` that is not a shared library, for LD_LIBRARY_PATH: the
/// dynamic linker finds it before the system's copy and refuses it, as it would a corrupt install.
private func brokenLibraryFolder(_ rig: borrowing CaptureRig, named name: String) -> String {
    let folder = rig.folder + "/broken-libraries"
    mkdir(folder, 0o755)
    writeFile(folder + "/" + name, "not a shared library\n")
    return folder
}

@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrokenClientLibraryTests {
    @Test func `a libsoxr that cannot be opened fails the sound icon that needs it, with the reason, and the module serves on`()
        throws
    {
        let rig = CaptureRig()
        writeIconNeedingResampling(rig)
        let folder = brokenLibraryFolder(rig, named: "libsoxr.so.0")
        let module = try startModule(
            rig, configurationPath: rig.folder + "/utter.conf", environment: ["LD_LIBRARY_PATH=\(folder)"])
        speak(module, "tone.wav", command: "SOUND_ICON")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.log.contains("resampling failed: \(folder)/libsoxr.so.0"), "the reason is logged: \(rig.log)")
        speak(module, "<speak>Speech needs no resampling.</speak>")
        #expect(module.expect("702 END\n") == "701 BEGIN\n702 END\n")
        #expect(rig.samples().contains { abs(Int32($0)) > 1000 }, "the sentence was played")
        #expect(module.quit() == 0)
    }

    @Test func `a libpipewire that cannot be opened refuses INIT with the reason, as any backend that cannot start`()
        throws
    {
        let rig = CaptureRig()
        writeFile(rig.folder + "/utter.conf", "AudioBackend pipewire\n")
        let folder = brokenLibraryFolder(rig, named: "libpipewire-0.3.so.0")
        let module = try ModuleProcess(
            home: rig.folder, logPath: rig.logPath, configurationPath: rig.folder + "/utter.conf",
            environment: ["LD_LIBRARY_PATH=\(folder)"])
        module.send("INIT\n")
        let reply = try #require(module.expect("399 ERR CANT INIT MODULE\n"))
        #expect(
            reply.hasPrefix("399-cannot open PipeWire's client library: \(folder)/libpipewire-0.3.so.0: ")
                && reply.split(separator: "\n").count == 2,
            "the reason is the reply: \(reply)")
        #expect(module.quit() == 0)
    }
}
