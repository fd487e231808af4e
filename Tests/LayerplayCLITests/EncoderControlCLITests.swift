import Foundation
import Testing
import TestSupport

/// ffprobe's JSON answer for `file` (streams, format, chapters; frames when asked).
func ffprobeJSON(_ file: String, in dir: URL, extra: [String] = []) throws -> [String: Any] {
    let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-of", "json", "-show_streams", "-show_format", "-show_chapters"]
                                                  + extra + [file], in: dir)
    return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
}

/// The streams of one kind (`video`, `audio`) in an ffprobe answer.
func probedStreams(_ probe: [String: Any], _ kind: String) -> [[String: Any]] {
    ((probe["streams"] as? [[String: Any]]) ?? []).filter { $0["codec_type"] as? String == kind }
}

/// The indices of the video frames ffprobe calls keyframes.
func keyframeIndices(_ file: String, in dir: URL) throws -> [Int] {
    let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                                                   "-of", "csv=p=0", file], in: dir)
    return out.split(separator: "\n").enumerated().compactMap { $0.element.hasPrefix("1") ? $0.offset : nil }
}

/// Decodes every stream of `file` to nothing with ffmpeg: throws when a packet does not decode.
func decodesCleanly(_ file: String, in dir: URL) throws {
    try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", file, "-f", "null", "-"], in: dir)
}

@Suite("layerplay encoder control")
struct EncoderControlCLITests {
    @Test func audioCodecsByNameInTheContainersThatTakeThem() throws {
        try withTemporaryDirectory { dir in
            for (codec, file, expected) in [("pcm_s16le", "a.mov", "pcm_s16le"), ("pcm_s24le", "b.mov", "pcm_s24le"),
                                            ("pcm_s16le", "c.mkv", "pcm_s16le"), ("pcm_s24le", "d.mkv", "pcm_s24le"),
                                            ("flac", "e.mkv", "flac"), ("libopus", "f.mkv", "opus"), ("aac", "g.mov", "aac"),
                                            ("copy", "h.mkv", "aac")] {
                expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "1", "--audio-codec", codec, "-o", file], in: dir))
                let probe = try ffprobeJSON(file, in: dir)
                let audio = probedStreams(probe, "audio")
                #expect(audio.count == 1 && audio.first?["codec_name"] as? String == expected, "\(file): \(audio)")
                // About a second of sound, decoded back without an error.
                let seconds = Double(audio.first?["duration"] as? String ?? "") ?? Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
                #expect(abs(seconds - 1) < 0.1, "\(file) lasts \(seconds) s")
                // PCM has no frame size: its sound ends with the movie, not with a padded last frame.
                if codec.hasPrefix("pcm") { #expect(abs(seconds - 1) < 0.001, "\(file): \(seconds) s of PCM for 1 s") }
                try decodesCleanly(file, in: dir)
            }
        }
    }

    @Test func audioBitrateIsTheEncoders() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--audio-bitrate", "32k", "-o", "low.mp4"], in: dir))
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--audio-codec", "aac", "--audio-bitrate", "256k", "-o", "high.mp4"], in: dir))
            func rate(_ f: String) throws -> Double { Double(probedStreams(try ffprobeJSON(f, in: dir), "audio").first?["bit_rate"] as? String ?? "") ?? 0 }
            let low = try rate("low.mp4"), high = try rate("high.mp4")
            #expect(low > 16_000 && low < 48_000, "32k asked, \(low) written")
            #expect(high > 3 * low, "256k asked, \(high) written (32k: \(low))")
        }
    }

    @Test func audioCodecsAContainerRefusesFailInOneLine() throws {
        try withTemporaryDirectory { dir in
            for (args, file, mention) in [(["--audio-codec", "pcm_s16le"], "x.mp4", "pcm_s16le"),
                                          (["--audio-codec", "copy"], "x.webm", "aac"),
                                          (["--audio-codec", "nosuch"], "x.mp4", "nosuch"),
                                          (["--audio-codec", "libx264"], "x.mp4", "libx264"),
                                          (["--audio-codec", "copy", "--audio-bitrate", "96k"], "x.mkv", "--audio-bitrate")] {
                let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4"] + args + ["-o", file], in: dir)
                expectRunFailure(r, absentOutput: dir.appendingPathComponent(file), directory: dir, mentions: [mention])
            }
        }
    }

    @Test func bitrateControlsTheVideoRate() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--bitrate", "200k", "-o", "low.mp4"], in: dir))
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--bitrate", "1M", "-o", "high.mp4"], in: dir))
            func rate(_ f: String) throws -> Double { Double(probedStreams(try ffprobeJSON(f, in: dir), "video").first?["bit_rate"] as? String ?? "") ?? 0 }
            let low = try rate("low.mp4"), high = try rate("high.mp4")
            #expect(low > 100_000 && low < 300_000, "200k asked, \(low) written")
            #expect(high > 600_000 && high < 1_400_000, "1M asked, \(high) written")
            // A CRF capped by --maxrate/--bufsize comes out well under the same CRF uncapped.
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--crf", "8", "-o", "free.mp4"], in: dir))
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--crf", "8", "--maxrate", "300k", "--bufsize", "300k",
                                        "-o", "capped.mp4"], in: dir))
            let free = try rate("free.mp4"), capped = try rate("capped.mp4")
            #expect(capped < 450_000 && free > 2 * capped, "crf 8: \(free) free, \(capped) capped at 300k")
            try decodesCleanly("capped.mp4", in: dir)
        }
    }

    @Test func gopSetsTheKeyframeInterval() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--no-audio", "--gop", "10", "-o", "g10.mp4"], in: dir))
            let keys = try keyframeIndices("g10.mp4", in: dir)
            #expect(keys.first == 0 && keys.count >= 5, "\(keys)")
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $1 - $0 <= 10 }, "keyframes further apart than 10: \(keys)")
            // Without it x264's default (250) leaves the 50 frames with one keyframe: the flag is what made the difference.
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--no-audio", "-o", "default.mp4"], in: dir))
            #expect(try keyframeIndices("default.mp4", in: dir).count < 3)
            // The encoder's own options reach it: x264-params with a keyframe every 5 frames and no scene cuts.
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--no-audio", "--encoder-opt", "x264-params=keyint=5:min-keyint=5:scenecut=0",
                                        "--encoder-opt", "preset=fast", "-o", "k5.mp4"], in: dir))
            #expect(try keyframeIndices("k5.mp4", in: dir) == Array(stride(from: 0, to: 50, by: 5)))
        }
    }

    @Test func pixFmtChoosesThePictureFormat() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--pix-fmt", "yuv444p", "-o", "full.mp4"], in: dir))
            #expect(probedStreams(try ffprobeJSON("full.mp4", in: dir), "video").first?["pix_fmt"] as? String == "yuv444p")
            try decodesCleanly("full.mp4", in: dir)
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--codec", "ffv1", "--pix-fmt", "yuv422p10le", "-o", "ten.mkv"], in: dir))
            #expect(probedStreams(try ffprobeJSON("ten.mkv", in: dir), "video").first?["pix_fmt"] as? String == "yuv422p10le")
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--pix-fmt", "nosuch", "-o", "a.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("a.mp4"), directory: dir, mentions: ["nosuch"])
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--pix-fmt", "pal8", "-o", "b.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("b.mp4"), directory: dir, mentions: ["pal8", "yuv420p"])
        }
    }

    @Test func unknownEncoderOptionsAreNamedInOneLine() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--encoder-opt", "bogus=1", "--encoder-opt", "x264-params=keyint=5",
                                  "--encoder-opt", "nope=2", "-o", "x.mp4"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("x.mp4"), directory: dir, mentions: ["'bogus'", "'nope'", "libx264"])
            #expect(!r.stderr.contains("x264-params"), "a known option is not named: \(r)")
            // A known option with a value the encoder refuses: one line too.
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--encoder-opt", "preset=warp", "-o", "y.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("y.mp4"), directory: dir, mentions: ["warp"])
        }
    }

    @Test func twoPassForX264AndVP9() throws {
        try withTemporaryDirectory { dir in
            // One run, both passes; nothing of pass 1 is left behind.
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--two-pass", "--bitrate", "400k", "-o", "auto.mp4"], in: dir))
            let auto = Double(probedStreams(try ffprobeJSON("auto.mp4", in: dir), "video").first?["bit_rate"] as? String ?? "") ?? 0
            #expect(auto > 300_000 && auto < 500_000, "400k asked, \(auto) written")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["auto.mp4"])
            // ffmpeg's way: --pass 1 then --pass 2 with one --passlogfile.
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--pass", "1", "--passlogfile", "st", "--bitrate", "400k", "-o", "p1.mp4"], in: dir))
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("st-0.log").path))
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--no-audio", "--pass", "2", "--passlogfile", "st", "--bitrate", "400k", "-o", "p2.mp4"], in: dir))
            try decodesCleanly("p2.mp4", in: dir)
            // libvpx keeps its statistics in the context: written by pass 1, read by pass 2.
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--pass", "1", "--passlogfile", "vp", "--bitrate", "300k", "-o", "v1.webm"], in: dir))
            let log = try String(contentsOf: dir.appendingPathComponent("vp-0.log"), encoding: .utf8)
            #expect(log.count > 100, "vp9 pass log: \(log.count) characters")
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--pass", "2", "--passlogfile", "vp", "--bitrate", "300k", "-o", "v2.webm"], in: dir))
            try decodesCleanly("v2.webm", in: dir)
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--two-pass", "--codec", "libvpx-vp9", "-o", "auto.webm"], in: dir))
            // Pass 2 without pass 1, and an encoder without two passes: one line each.
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--pass", "2", "--passlogfile", "none", "--bitrate", "300k", "-o", "n.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("n.mp4"), directory: dir, mentions: ["none-0.log"])
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--two-pass", "--codec", "mpeg4", "-o", "m.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("m.mp4"), directory: dir, mentions: ["mpeg4"])
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--two-pass", "-o", "c.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("c.mp4"), directory: dir, mentions: ["--bitrate"])
        }
    }

    @Test func hardwareEncodersWithoutADeviceFailInOneLine() throws {
        try withTemporaryDirectory { dir in
            // This machine (and CI) has no GPU: no /dev/dri render node, no CUDA.
            for codec in ["h264_vaapi", "h264_nvenc"] {
                let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--codec", codec, "-o", "\(codec).mp4"], in: dir)
                expectRunFailure(r, absentOutput: dir.appendingPathComponent("\(codec).mp4"), directory: dir, mentions: [codec])
            }
        }
    }

    @Test func metadataAndChaptersAreCopiedForTheRange() throws {
        try withTemporaryDirectory { dir in
            let meta = """
            ;FFMETADATA1
            title=Overlay test
            artist=LayerKit
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=3000
            title=Middle
            [CHAPTER]
            TIMEBASE=1/1000
            START=3000
            END=4000
            title=Close

            """
            try meta.write(to: dir.appendingPathComponent("meta.txt"), atomically: true, encoding: .utf8)
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=4",
                                                "-i", "meta.txt", "-map_metadata", "1", "-map_chapters", "1", "-c:v", "libx264", "in.mkv"], in: dir)
            expectSuccess(runLayerplay(["in.mkv", "--start", "1", "--duration", "2.4", "-o", "out.mp4"], in: dir))
            let probe = try ffprobeJSON("out.mp4", in: dir)
            let tags = (probe["format"] as? [String: Any])?["tags"] as? [String: Any]
            #expect(tags?["title"] as? String == "Overlay test" && tags?["artist"] as? String == "LayerKit", "\(String(describing: tags))")
            let chapters = (probe["chapters"] as? [[String: Any]]) ?? []
            let described = chapters.map { c -> String in
                let title = (c["tags"] as? [String: Any])?["title"] as? String ?? "?"
                return "\(title) \(c["start_time"] as? String ?? "?")-\(c["end_time"] as? String ?? "?")"
            }
            #expect(described == ["Opening 0.000000-0.500000", "Middle 0.500000-2.000000", "Close 2.000000-2.400000"], "\(described)")
        }
    }

    @Test func badEncoderFlagsAreUsageErrors() throws {
        try withTemporaryDirectory { dir in
            for args in [["--bitrate", "fast"], ["--bitrate", "-3M"], ["--gop", "0"], ["--pass", "3"], ["--encoder-opt", "novalue"],
                         ["--two-pass", "--pass", "1"], ["--passlogfile", "x"], ["--audio-bitrate", "0"], ["--maxrate", "1e30"]] {
                expectUsageError(runLayerplay([mediaSample("clip.mp4")] + args + ["-o", "x.mp4"], in: dir),
                                 absentOutput: dir.appendingPathComponent("x.mp4"))
            }
            // x264 ignores a maxrate without a buffer: refused rather than silently dropped.
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--maxrate", "1M", "-o", "m.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("m.mp4"), directory: dir, mentions: ["--bufsize"])
        }
    }

    @Test func aSceneExportTakesTheEncoderFlags() throws {
        try withTemporaryDirectory { dir in
            let scene = ##"{ "version": "1.0", "canvas": { "size": "160x120", "duration": 1, "fps": 25, "background": "#336699" }, "layers": [] }"##
            try scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            expectSuccess(runLayerplay(["s.json", "--gop", "5", "--pix-fmt", "yuv444p", "-o", "s.mp4"], in: dir))
            #expect(probedStreams(try ffprobeJSON("s.mp4", in: dir), "video").first?["pix_fmt"] as? String == "yuv444p")
            #expect(try keyframeIndices("s.mp4", in: dir) == [0, 5, 10, 15, 20])
        }
    }
}
