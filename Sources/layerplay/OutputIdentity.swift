import Foundation
import LayerMedia
#if canImport(Glibc)
import Glibc
#endif

/// Whether writing an output would write over an input, however either is spelled.
enum OutputIdentity {
    /// True when `output` is `input`: the same file (same device and inode, which sees through symlinks, `..` and
    /// hard links) when both exist, the same resolved path otherwise; for an image sequence, when one of its
    /// numbered pictures is the input.
    static func writes(_ output: String, over input: String) -> Bool {
        guard MovieWriter.isImageSequence(output) else { return sameFile(output, input) }
        let inURL = URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath()
        let outDirectory = URL(fileURLWithPath: output).deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
        let pattern = (output as NSString).lastPathComponent, name = inURL.lastPathComponent
        guard inURL.deletingLastPathComponent().path == outDirectory.path else { return false }
        // The input's name is picture n of the pattern when n, printed by the pattern, gives the name back.
        let numbers = name.split { !$0.isASCII || !$0.isNumber }.compactMap { Int($0) }
        return numbers.contains { $0 > 0 && MovieWriter.sequenceFileName(pattern, number: $0) == name }
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0 && stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(a) == resolved(b)
    }
}
