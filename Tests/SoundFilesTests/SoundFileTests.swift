import AudioSinks
import CSndFile
import Glibc
import SoundFiles
import TestSupport
import Testing

/// Rising zero crossings per second: the frequency of a pure tone.
private func frequency(_ samples: [Int16], sampleRate: Int) -> Double {
    let rising = zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
    return Double(rising) * Double(sampleRate) / Double(samples.count)
}

/// Writes `samples` (mono) through a ``SoundFileStore`` at `path`, closed at the end.
private func store(_ samples: [Int16], sampleRate: Int, at path: String) throws {
    let store = try SoundFileStore(path: path, sampleRate: sampleRate)
    let error = samples.withUnsafeBufferPointer { store.append($0) }
    #expect(error == nil)
    store.close()
}

/// Why the file at `path` cannot be played at 22,050 Hz; nil when it can.
private func refusal(_ path: String, maximumSeconds: Double = 60) -> SoundFileError? {
    do {
        _ = try SoundClip.load(path, sampleRate: 22050, maximumSeconds: maximumSeconds)
        return nil
    } catch {
        return error
    }
}

/// Sound files written and read through libsndfile, and converted to the output rate through libsoxr.
@Suite struct SoundFileTests {
    @Test(arguments: ["wav", "flac", "aiff", "au", "caf"])
    func `a lossless file written by the store is read back sample for sample`(format: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("speech." + format)
        let samples = tone(frequency: 440, seconds: 0.5, amplitude: 12000) + [32767, -32768, 0, 1, -1]
        try store(samples, sampleRate: 22050, at: path)
        let info = try SoundFileInfo(path: path)
        #expect(info.frames == samples.count && info.sampleRate == 22050 && info.channels == 1)
        let clip = try SoundClip.load(path, sampleRate: 22050)
        #expect(clip == SoundClip(samples: samples, sampleRate: 22050))
        #expect(abs(try SoundFileLength.seconds(of: path) - Double(samples.count) / 22050) < 1e-9)
    }

    @Test func `Ogg Vorbis keeps the tone's length, frequency and level`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("speech.ogg")
        let samples = tone(frequency: 440, seconds: 1, amplitude: 12000)
        try store(samples, sampleRate: 22050, at: path)
        let clip = try SoundClip.load(path, sampleRate: 22050)
        #expect(abs(clip.samples.count - samples.count) < 100, "\(clip.samples.count) samples")
        #expect(abs(frequency(clip.samples, sampleRate: 22050) - 440) < 3)
        #expect(abs(rootMeanSquare(clip.samples) / rootMeanSquare(samples) - 1) < 0.05)
    }

    @Test func `a WAV being written is complete after every append, before it is closed`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("growing.wav")
        let store = try SoundFileStore(path: path, sampleRate: 16000)
        for round in 1...3 {
            let error = tone(frequency: 300, seconds: 0.1, amplitude: 8000, sampleRate: 16000)
                .withUnsafeBufferPointer { store.append($0) }
            #expect(error == nil)
            #expect(try SoundFileInfo(path: path).frames == round * 1600)
            #expect(try SoundClip.load(path, sampleRate: 16000).samples.count == round * 1600)
        }
        store.close()
        let after = [Int16](repeating: 1000, count: 10)
        #expect(after.withUnsafeBufferPointer { store.append($0) } == nil, "dropped once closed")
        #expect(try SoundFileInfo(path: path).frames == 4800)
    }

    @Test(arguments: [(44100, 22050), (22050, 48000), (16000, 22050)])
    func `a tone at another rate is converted with its frequency and length kept`(from: Int, to: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.file("icon.wav")
        let original = tone(frequency: 1000, seconds: 0.5, amplitude: 10000, sampleRate: from)
        #expect(SoundFileContents.writeWAV(original, sampleRate: from, to: path))
        let clip = try SoundClip.load(path, sampleRate: to)
        #expect(clip.sampleRate == to && !clip.isCutShort)
        #expect(abs(Double(clip.samples.count) / Double(to) - 0.5) < 0.002, "\(clip.samples.count) samples")
        #expect(abs(frequency(clip.samples, sampleRate: to) - 1000) < 5)
        #expect(abs(rootMeanSquare(clip.samples) / rootMeanSquare(original) - 1) < 0.02)

        let floats = original.map { Float($0) / 32768 }
        let converted = try #require(Resampling.convert(floats, from: from, to: to))
        #expect(abs(converted.count - clip.samples.count) <= 1)
        #expect(Resampling.convert(floats, from: from, to: from) == floats, "the same rate is left alone")
    }

    @Test func `a stereo file is mixed down to mono`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("stereo.wav")
        let left = tone(frequency: 500, seconds: 0.2, amplitude: 8000)
        var info = SF_INFO()
        info.samplerate = 22050
        info.channels = 2
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let file = try openSoundFile(path: path, mode: Int32(SFM_WRITE), info: &info)
        // The right channel is silent: the mix is the left at half its level.
        let interleaved = left.flatMap { sample -> [Int16] in [sample * 2, 0] }
        #expect(sf_writef_short(file, interleaved, sf_count_t(left.count)) == left.count)
        sf_close(file)
        #expect(try SoundFileInfo(path: path).channels == 2)
        #expect(try SoundClip.load(path, sampleRate: 22050).samples == left)
        let stereo = #expect(throws: SoundFileError.self) { _ = try SoundFileStream(path: path) }
        #expect(stereo?.reason == "it is not mono")
    }

    @Test func `a mono file is read a stretch at a time, the last one shorter`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("long.flac")
        let samples = tone(frequency: 220, seconds: 1, amplitude: 9000)
        try store(samples, sampleRate: 22050, at: path)
        let stream = try SoundFileStream(path: path)
        #expect(stream.sampleRate == 22050)
        var read: [Int16] = []
        var stretches: [Int] = []
        while case let stretch = stream.read(frames: 4000), !stretch.isEmpty {
            read += stretch
            stretches.append(stretch.count)
        }
        #expect(read == samples)
        #expect(stretches == [4000, 4000, 4000, 4000, 4000, 2050])
    }

    // libsndfile keeps a failed open's reason in one variable for the process, which every open
    // clears: read beside another thread's opens it said "No Error." (CI).
    @Test func `a refused file gets libsndfile's reason while other threads open files`() async {
        let folder = TemporaryFolder()
        let noise = folder.file("noise.wav")
        writeFile(noise, String(repeating: "not a sound file at all ", count: 100))
        let sound = folder.file("sound.wav")
        let samples = tone(frequency: 440, seconds: 0.05, amplitude: 8000)
        #expect(SoundFileContents.writeWAV(samples, sampleRate: 22050, to: sound))
        let reasons = await withTaskGroup(of: [String].self) { group in
            for task in 0..<4 {
                group.addTask {
                    var reasons: [String] = []
                    for _ in 0..<300 {
                        do throws(SoundFileError) {
                            _ = try SoundFileLength.seconds(of: task % 2 == 0 ? noise : sound)
                        } catch {
                            reasons.append(error.reason)
                        }
                    }
                    return reasons
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(reasons.count == 600)
        #expect(Set(reasons) == ["Format not recognised."])
    }

    @Test func `missing, foreign, empty and overlong files are refused with what is wrong`() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("missing.wav")
        #expect(refusal(missing)?.description == "cannot play \(missing): No such file or directory")
        #expect(refusal(folder.path)?.reason == "it is not a regular file")

        let noise = folder.file("noise.wav")
        writeFile(noise, String(repeating: "not a sound file at all ", count: 100))
        let foreign = try #require(refusal(noise))
        // In libsndfile's words.
        #expect(foreign.description == "cannot play \(noise): Format not recognised.")

        let empty = folder.file("empty.wav")
        #expect(SoundFileContents.writeWAV([], sampleRate: 22050, to: empty))
        let nothing = try #require(refusal(empty))
        #expect(nothing.reason.hasPrefix("it holds no readable audio ("), "\(nothing)")

        let long = folder.file("long.wav")
        #expect(SoundFileContents.writeWAV([Int16](repeating: 100, count: 22050 * 2), sampleRate: 22050, to: long))
        #expect(refusal(long, maximumSeconds: 1)?.reason == "it is longer than 1 seconds")
        #expect(refusal(long) == nil)
    }

    @Test func `a WAV cut short while it is copied gives what it holds, marked as cut short`() throws {
        let folder = TemporaryFolder()
        let path = folder.file("copying.wav")
        let samples = tone(frequency: 440, seconds: 1, amplitude: 9000)
        #expect(SoundFileContents.writeWAV(samples, sampleRate: 22050, to: path))
        // The 44-byte header, which still announces every sample, and the first half of them.
        try #require(truncate(path, off_t(44 + samples.count)) == 0)
        let clip = try SoundClip.load(path, sampleRate: 22050)
        #expect(clip.isCutShort)
        #expect(clip.samples == Array(samples.prefix(samples.count / 2)))
    }

    @Test func `a file that cannot be written says why, and which names are understood`() {
        let folder = TemporaryFolder()
        let mp3 = folder.file("speech.mp3")
        let unknown = #expect(throws: SoundFileError.self) {
            _ = try SoundFileStore(path: mp3, sampleRate: 22050)
        }
        #expect(
            unknown?.description
                == "cannot write \(mp3): its name must end with .wav, .flac, .ogg, .oga, .aiff, .au or .caf")
        let nowhere = folder.file("no/such/folder/speech.wav")
        let missingFolder = #expect(throws: SoundFileError.self) {
            _ = try SoundFileStore(path: nowhere, sampleRate: 22050)
        }
        #expect(missingFolder?.description == "cannot write \(nowhere): No such file or directory")
        #expect(SoundFileStore.format(forPath: "TALK.WAV") == SoundFileStore.format(forPath: "talk.wav"))
        #expect(SoundFileStore.format(forPath: "talk.oga") == SoundFileStore.format(forPath: "talk.ogg"))
    }
}
