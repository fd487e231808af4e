import Foundation

/// The font file fontconfig gives for "Helvetica" (`fc-match -f %{file} Helvetica`), or nil without fontconfig's tool.
/// Text goldens were recorded with Nimbus Sans (fonts-urw-base35, Helvetica's metrics): with any other file the
/// glyphs differ, so those tests are skipped with this file named rather than failed.
public let helveticaFontFile: String? = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["fc-match", "-f", "%{file}", "Helvetica"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}()

/// Whether "Helvetica" resolves to Nimbus Sans, as when the text goldens were recorded.
public let helveticaIsNimbusSans = helveticaFontFile?.hasSuffix("/NimbusSans-Regular.otf") ?? false

/// Why a text golden is skipped here.
public let helveticaSkipReason = "text goldens need Helvetica = Nimbus Sans (fonts-urw-base35, `make deps`); fc-match gives \(helveticaFontFile ?? "nothing")"
