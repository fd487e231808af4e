import Foundation
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

/// A scene reaches nothing but the local files it names: no URL or FFmpeg protocol (`http:`, `pipe:`, `concat:`,
/// `subfile:`…) and no command, whether written literally, computed by an expression, or given on the command
/// line; and the files it does name are opened by absolute paths, which FFmpeg reads only with its `file` protocol.
@Suite("Scene file access")
struct SceneFileAccessTests {
    /// Media that records every path it is asked to open.
    final class RecordingMedia: SceneMedia {
        var opened: [String] = []
        func probe(_ path: String) throws -> SceneMediaInfo {
            opened.append(path)
            return SceneMediaInfo(size: Size(width: 64, height: 36), duration: 1, fps: 25, hasAudio: false)
        }
        func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
            opened.append(input.src)
            return Layer()
        }
    }

    static let hostile = ["http://example.com/a.mp4", "https://x/y.mkv", "pipe:0", "concat:a.mp4|b.mp4", "subfile:,,start,0,end,0,,:x.mp4",
                          "data:video/mp4;base64,AAAA", "file:/etc/passwd", "tcp://127.0.0.1:9", "rtmp://h/app", "|rm -rf ~", "!ls"]

    @Test(arguments: hostile)
    func refusedWhereverAFileIsNamed(_ name: String) throws {
        let quoted = SceneBuilder.Printed.quoted(name)
        let media = RecordingMedia()
        let places = [
            "{\"version\": \"1.0\", \"inputs\": {\"main\": {\"src\": \(quoted)}}, \"layers\": []}",
            "{\"version\": \"1.0\", \"layers\": [{\"type\": \"media\", \"src\": \(quoted)}]}",
            "{\"version\": \"1.0\", \"layers\": [{\"contents\": \(quoted)}]}",
            "{\"version\": \"1.0\", \"layers\": [{\"type\": \"subtitles\", \"file\": \(quoted)}]}",
            "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \(quoted)}]}",
            "{\"version\": \"1.0\", \"layers\": [{\"type\": \"emitter\", \"emitterCells\": [{\"contents\": \(quoted)}]}]}",
            // Computed by an expression, or through a param's default.
            "{\"version\": \"1.0\", \"layers\": [{\"type\": \"media\", \"src\": \"='\(name.replacingOccurrences(of: "'", with: ""))'\"}]}",
            "{\"version\": \"1.0\", \"params\": {\"clip\": {\"type\": \"media\", \"default\": \(quoted)}}, \"layers\": []}",
        ]
        for scene in places {
            let errors = sceneErrors(scene, media: media)
            #expect(errors.count == 1, "\(scene)")
            #expect(errors.first?.contains("expected a local file, got") == true, "\(scene): \(errors)")
        }
        // Given on the command line for a media param.
        let param = "{\"version\": \"1.0\", \"params\": {\"clip\": {\"type\": \"media\", \"position\": 0}}, \"layers\": []}"
        #expect(sceneErrors(param, arguments: [name], media: media).first?.contains("expected a local file, got") == true)
        #expect(sceneErrors(param, sets: [("clip", name)], media: media).first?.contains("expected a local file, got") == true)
        #expect(media.opened.isEmpty, "nothing reached the media layer")
    }

    @Test func theMessageSaysWhatWasRefused() {
        #expect(sceneErrors("{\"version\": \"1.0\", \"inputs\": {\"main\": {\"src\": \"http://e.com/a.mp4\"}}, \"layers\": []}", media: RecordingMedia())
            == ["t.json:1:47: inputs.main.src: expected a local file, got \"http://e.com/a.mp4\": a scene reads only files it names, no URLs or FFmpeg protocols such as http: unless run with --allow-network (write ./http://e.com/a.mp4 for a file whose name has a colon)"])
        #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [{\"contents\": \"|cat /etc/passwd\"}]}")
            == ["t.json:1:44: layers[0].contents: expected a local file, got \"|cat /etc/passwd\": a scene runs no commands"])
    }

    @Test func aRelativeNameWithAColonIsOpenedAsAFileNotAProtocol() throws {
        // Given raw, FFmpeg would read "layerplay-…-x" as a protocol name ("Protocol not found"); the scene media
        // opens every path as an absolute one, which FFmpeg always reads as a file.
        let clip = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../media/sar.mp4").standardized.path
        let name = "layerplay-test-\(UUID().uuidString.prefix(8))-x:y.mp4"
        try FileManager.default.copyItem(atPath: clip, toPath: name)
        defer { try? FileManager.default.removeItem(atPath: name) }
        let info = try MediaAssetSceneMedia().probe(name)
        #expect(info.size != nil && (info.duration ?? 0) > 0)
        #expect(SceneFileRule.refusal("./\(name)") == nil && SceneFileRule.refusal(name) != nil,
                "in a scene the name is written ./NAME, since a bare one reads like a protocol")
    }

    /// A local file is not a way out either: a playlist that names a URL is opened with FFmpeg's `file` protocol,
    /// whose nested opens may use only `file`, `crypto` and `data`, so its segment is never fetched. A listener on
    /// the segment's port sees no connection.
    @Test func aLocalPlaylistCannotReachTheNetwork() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(server >= 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { a in
            try a.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                try #require(bind(server, p, length) == 0 && listen(server, 4) == 0 && getsockname(server, p, &length) == 0)
            }
        }
        let port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(server, F_SETFL, fcntl(server, F_GETFL) | O_NONBLOCK)

        let folder = try SceneFolder(["evil.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhttp://127.0.0.1:\(port)/seg.ts\n#EXT-X-ENDLIST\n"])
        let errors = sceneErrors("{\"version\": \"1.0\", \"inputs\": {\"main\": {\"src\": \"\(folder.path)/evil.m3u8\"}}, \"layers\": []}",
                                 media: MediaAssetSceneMedia())
        #expect(errors.count == 1 && errors.first?.contains("inputs.main.src: cannot open") == true, "\(errors)")
        let client = accept(server, nil, nil)
        #expect(client < 0, "the playlist's URL was fetched")
        if client >= 0 { close(client) }
    }

    @Test func aLoadThatReadsNoFilesRefusesThem() {
        var o = SceneLoadOptions(file: "t.json", directory: "/")
        o.readsFiles = false
        do throws(SceneErrors) {
            _ = try SceneLoader.load(text: "{\"version\": \"1.0\", \"layers\": [{\"contents\": \"etc/passwd\"}, {\"type\": \"scene\", \"src\": \"x.json\"}]}", options: o)
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "t.json:1:44: layers[0].contents: cannot open 'etc/passwd': this load reads no files",
                "t.json:1:84: layers[1].src: cannot open 'x.json': this load reads no files",
            ])
        }
    }
}
