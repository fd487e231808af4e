// How many columns the colour converter's kernels take in one go (video_color_body.h).

/// Eight-column groups a call converts in one go: each step of the chain for all of their runs, then the next step.
/// A step is a short chain over independent pixels, so the core overlaps many table reads (and divisions) instead of
/// waiting for each one: the whole chain in one loop waited on the reads' latency (7.3 ns a pixel on a real 4K frame;
/// in four steps 4.7, chroma included). Eight groups, not four: the AVX-512 steps then have four registers of
/// sixteen pixels in flight, not two (a real 4K frame 2.6 → 2.4 ns a pixel).
#define GROUPS 8
/// The most runs of the chain a chunk makes (an 8-column group not interpolated makes one a row).
#define MOST_RUNS (2 * GROUPS)
