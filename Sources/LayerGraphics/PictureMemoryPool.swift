import Synchronization

/// Memory for pictures of one size, taken back when a picture made from it is released and handed out again. A
/// converter that makes a new picture every frame would otherwise take fresh pages from the kernel every frame,
/// which the kernel zeroes first: measured on a 1080p PQ export, that zeroing cost a third as much as the colour
/// conversion itself (Benchmarks/hdr.sh).
///
/// A block is zeroed once, when first allocated; the pool's users write every picture byte, never the padding at
/// the end of a row, so a block handed out again still has zero padding. At most `kept` blocks wait in the pool;
/// a block of another size (the pictures' size changed) empties it.
final class PictureMemoryPool: Sendable {
    /// A block of the pool's memory; given back to the pool when released.
    final class Block: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let byteCount: Int
        private let pool: PictureMemoryPool

        fileprivate init(base: UnsafeMutableRawPointer, byteCount: Int, pool: PictureMemoryPool) {
            self.base = base; self.byteCount = byteCount; self.pool = pool
        }

        deinit { pool.takeBack(base, byteCount: byteCount) }
    }

    /// How many free blocks the pool keeps (the rest are freed).
    let kept: Int
    /// The free blocks' addresses and their size.
    private let free = Guarded<(addresses: [UInt], byteCount: Int)>(([], 0))
    /// How many blocks it has allocated (the tests count reuse).
    private let allocated = Atomic<Int>(0)
    var allocations: Int { allocated.load(ordering: .relaxed) }

    init(kept: Int = 4) { self.kept = kept }

    deinit {
        free.withLock { state in
            for address in state.addresses { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
    }

    /// A block of `byteCount` bytes: a free one of that size, else new zeroed memory.
    func block(byteCount: Int) -> Block {
        let reused: UnsafeMutableRawPointer? = free.withLock { state in
            guard state.byteCount == byteCount, let address = state.addresses.popLast() else { return nil }
            return UnsafeMutableRawPointer(bitPattern: address)
        }
        if let reused { return Block(base: reused, byteCount: byteCount, pool: self) }
        allocated.add(1, ordering: .relaxed)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        return Block(base: memory, byteCount: byteCount, pool: self)
    }

    fileprivate func takeBack(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        let surplus: [UInt] = free.withLock { state in
            var dropped: [UInt] = []
            if state.byteCount != byteCount {
                dropped = state.addresses
                state = ([], byteCount)
            }
            if state.addresses.count < kept { state.addresses.append(UInt(bitPattern: base)) } else { dropped.append(UInt(bitPattern: base)) }
            return dropped
        }
        for address in surplus { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
    }
}
