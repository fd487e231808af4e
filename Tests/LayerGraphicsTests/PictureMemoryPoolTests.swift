@testable import LayerGraphics
import Testing

@Suite("Picture memory pool")
struct PictureMemoryPoolTests {
    private func picture(_ pool: PictureMemoryPool, width: Int = 64) -> PixelBuffer {
        PixelBuffer(format: .yuv420p, width: width, height: 32, matrix: .bt709, range: .limited, chromaLocation: .left,
                    pool: pool) { _, base, _ in base.storeBytes(of: 7, as: UInt8.self) }
    }

    @Test func releasedPicturesGiveTheirMemoryToTheNext() {
        let pool = PictureMemoryPool(kept: 2)
        var first: PixelBuffer? = picture(pool)
        let base = first!.planes[0].base
        first = nil
        let second = picture(pool)
        #expect(second.planes[0].base == base)
        #expect(pool.allocations == 1)
        // Three alive at once, released: two are kept, the third freed; three more take two kept and one new.
        var alive: [PixelBuffer] = [picture(pool), picture(pool), picture(pool)]
        #expect(pool.allocations == 4)
        alive.removeAll()
        alive = [picture(pool), picture(pool), picture(pool)]
        #expect(pool.allocations == 5)
        withExtendedLifetime((second, alive)) {}
    }

    @Test func anotherSizeEmptiesThePool() {
        let pool = PictureMemoryPool()
        var small: PixelBuffer? = picture(pool, width: 64)
        small = nil
        var large: PixelBuffer? = picture(pool, width: 256)
        #expect(pool.allocations == 2)
        large = nil
        _ = picture(pool, width: 256)
        #expect(pool.allocations == 2)
        withExtendedLifetime((small, large)) {}
    }

    @Test func converterPicturesComeFromItsPool() {
        let converter = VideoColorConverter(source: ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq))
        let source = PixelBuffer(format: .yuv420p10, width: 64, height: 32, matrix: .bt2020, range: .limited) { _, _, _ in }
        for _ in 0..<10 { _ = converter.convert(source) }
        #expect(converter.pictureAllocations == 1)
    }
}
