import Foundation

extension Exporter {
    /// The export's encode: once, or with `--two-pass` twice, as `ffmpeg -pass 1` then `-pass 2` would: pass 1 writes
    /// the encoder's statistics (its movie, written to the same temporary, is thrown away), pass 2 reads them and
    /// writes the movie. The statistics live in a temporary folder removed afterwards, whatever happens.
    func runPasses(temporary: String, finalPath: String, progress: ((Progress) -> Void)?) throws -> Statistics {
        guard settings.control.twoPass else { return try run(settings: settings, temporary: temporary, finalPath: finalPath, progress: progress) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-2pass-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var first = settings
        first.control.twoPass = false
        first.control.pass = 1
        first.control.passLogFile = folder.appendingPathComponent("pass").path
        // Each pass's progress says which it is: frames count from 1 in both (CLI.md "Progress").
        _ = try run(settings: first, temporary: temporary, finalPath: finalPath, progress: progress.map { report in { var p = $0; p.pass = 1; report(p) } })
        try? FileManager.default.removeItem(atPath: temporary)
        var second = first
        second.control.pass = 2
        return try run(settings: second, temporary: temporary, finalPath: finalPath, progress: progress.map { report in { var p = $0; p.pass = 2; report(p) } })
    }
}
