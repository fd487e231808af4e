/// The random draws of particles: counter-based, so a draw depends only on (seed, cell, particle index, attribute)
/// and never on what was drawn before (SEMANTICS-LAYERS.md §7 "Randomness"). SplitMix64's finaliser mixes the key.
struct ParticleRandom: Sendable {
    /// The seed and the cell's path, mixed.
    let cellKey: UInt64

    /// The stream of cell `path` (indices from the layer's `emitterCells` down) under `seed`.
    init(seed: UInt32, path: [Int]) {
        var key = Self.mix(UInt64(seed) &+ 0x6A09_E667_F3BC_C909)
        for i in path { key = Self.mix(key ^ Self.mix(UInt64(truncatingIfNeeded: i) &+ 1)) }
        cellKey = key
    }

    /// The key of particle `n`: every draw of that particle starts from it.
    @inline(__always)
    func particle(_ n: UInt64) -> UInt64 { Self.mix(cellKey &+ n &* 0x9E37_79B9_7F4A_7C15) }

    /// Draw `k` of the particle whose key is `particle`, uniform in [0, 1) (the top 53 bits).
    @inline(__always)
    static func unit(_ particle: UInt64, _ k: UInt64) -> Double {
        Double(mix(particle &+ (k &+ 1) &* 0xD1B5_4A32_D192_ED03) >> 11) * 0x1p-53
    }

    /// SplitMix64's finaliser.
    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The draw numbers of each attribute (§7): fixed, so that changing one attribute's range leaves the others' draws.
enum RandomDraw {
    static let lifetime: UInt64 = 0, velocity: UInt64 = 1, longitude: UInt64 = 2
    static let positionX: UInt64 = 3, positionY: UInt64 = 4, positionZ: UInt64 = 5
    static let scale: UInt64 = 6, spin: UInt64 = 7
    static let red: UInt64 = 8, green: UInt64 = 9, blue: UInt64 = 10, alpha: UInt64 = 11
    /// Which face, edge or corner of a shape (beyond §7's list: only shapes with parts use it).
    static let part: UInt64 = 12
}
