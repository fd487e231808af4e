// Header-only (CFuzzer.h); SwiftPM wants one source file in a C target.
