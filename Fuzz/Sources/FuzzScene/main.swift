import CFuzzer
import Foundation

// Hands control to libFuzzer with this harness's one-input function (see CFuzzer.h for why not libFuzzer's main).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return fuzzScene(nil, 0) }
    return fuzzScene(data, size)
})
