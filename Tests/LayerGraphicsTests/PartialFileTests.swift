import Foundation
import LayerGraphics
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("PartialFile: temporaries beside a target")
struct PartialFileTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    @Test func theTemporaryIsHiddenBesideTheTargetAndNamesThisProcess() {
        #expect(PartialFile.path(for: "/a/b/out.mp4") == "/a/b/.out.mp4.\(getpid()).partial")
        #expect(PartialFile.path(for: "/a/f_%03d.png") == "/a/.f__03d.png.\(getpid()).partial")
    }

    /// Without replacing, a target that appeared after the writer started is never replaced, and the temporary stays
    /// for the caller to remove; with replacing, it is.
    @Test func publishingWithoutReplacingNeverReplaces() throws {
        try withDirectory { dir in
            let target = dir + "/out.bin", temporary = PartialFile.path(for: target)
            try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            #expect(throws: FileExistsError.self) { try PartialFile.publish(temporary, at: target, replacing: false) }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
            try PartialFile.publish(temporary, at: target, replacing: true)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
            #expect(!FileManager.default.fileExists(atPath: temporary))
            try Data("newer".utf8).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.removeItem(atPath: target)
            try PartialFile.publish(temporary, at: target, replacing: false)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "newer")
            #expect(!FileManager.default.fileExists(atPath: temporary))
        }
    }
}
