#if canImport(Glibc)
import Glibc
#endif

/// Bytes whose last one sits just before a page that may not be touched: a kernel that reads or writes even one
/// byte past the end faults at once, in any build, instead of reading a neighbour's memory unnoticed (what an
/// address sanitizer would report, without needing one). The first byte has no such guard.
public final class GuardedMemory {
    public let count: Int
    public let bytes: UnsafeMutablePointer<UInt8>
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int

    /// `count` bytes filled by `fill(i)`.
    public init(count: Int, fill: (Int) -> UInt8 = { _ in 0 }) {
        precondition(count > 0)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let body = (count + page - 1) / page * page
        mappedLength = body + page
        guard let map = mmap(nil, mappedLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              map != MAP_FAILED else { fatalError("mmap of \(mappedLength) bytes failed") }
        mapping = map
        precondition(mprotect(map + body, page, PROT_NONE) == 0, "mprotect of the guard page failed")
        self.count = count
        bytes = (map + (body - count)).assumingMemoryBound(to: UInt8.self)
        for i in 0..<count { bytes[i] = fill(i) }
    }

    deinit { munmap(mapping, mappedLength) }
}
