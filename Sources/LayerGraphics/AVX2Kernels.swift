import CKernels
import Foundation

/// Whether the AVX2 kernels of CKernels run: the CPU has AVX2 and FMA (the colour converter fuses multiply-adds;
/// every AVX2 CPU has FMA), and `LAYERPLAY_SIMD=baseline` does not ask for the plain Swift kernels (to compare, or to
/// rule the C kernels out when something looks wrong).
///
/// One switch for every module that has AVX2 kernels (this one's YUV conversion, the compositor's samplers), read
/// once per process.
public let avx2KernelsEnabled: Bool = lp_cpu_has_avx2() != 0 && ProcessInfo.processInfo.environment["LAYERPLAY_SIMD"] != "baseline"
